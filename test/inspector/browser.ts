/**
 * The browser of the inspector's end-to-end tests: Debian's Chromium, headless, driven by
 * puppeteer-core (which never downloads a browser). Tests skip, saying why, where there is none.
 * Screenshots go to .cache/inspector-screenshots/ (git-ignored); with RINGCHAIN_UPDATE_SCREENSHOT=1
 * the README's docs/inspector.png is rewritten too.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'puppeteer-core'

const CANDIDATES = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter((p): p is string => p !== undefined && p !== '')

/** The browser's executable, or undefined. */
export const chromiumPath: string | undefined = CANDIDATES.find((p) => existsSync(p))

/** The built page (the server serves dist/inspector/). */
export const pageBuilt = existsSync(new URL('../../dist/inspector/index.html', import.meta.url))

/** Why the browser tests cannot run here, or undefined when they can. */
export const skipReason: string | undefined =
  chromiumPath === undefined ? `no Chromium (looked for ${CANDIDATES.join(', ')}; apt-get install chromium)` : !pageBuilt ? 'dist/inspector/ is missing: run `npm run build`' : undefined

export async function launch(): Promise<Browser> {
  const { default: puppeteer } = await import('puppeteer-core')
  return puppeteer.launch({
    executablePath: chromiumPath!,
    headless: true,
    // As root (CI containers) Chromium refuses to start sandboxed.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  })
}

/** A new page of 1280×800 whose script errors fail the test that reads `errors`. */
export async function openPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage()
  await page.setViewport({ width: 1280, height: 800 })
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  return { page, errors }
}

const SHOTS = fileURLToPath(new URL('../../.cache/inspector-screenshots/', import.meta.url))

/** Saves a full-page screenshot as .cache/inspector-screenshots/<name>.png. */
export async function screenshot(page: Page, name: string, forReadme = false): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  const path = `${SHOTS}${name}.png`
  await page.screenshot({ path: path as `${string}.png`, fullPage: !forReadme })
  if (forReadme && process.env['RINGCHAIN_UPDATE_SCREENSHOT'] === '1') copyFileSync(path, fileURLToPath(new URL('../../docs/inspector.png', import.meta.url)))
}

/** Waits (at most 10 s) until an element matching `selector` contains `text`; gives that element's whole text. */
export async function waitForText(page: Page, selector: string, text: string): Promise<string> {
  const handle = await page.waitForFunction(
    // A string, not a function: the test program has no DOM types.
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.textContent ?? '').find((t) => t.includes(${JSON.stringify(text)})) ?? false`,
    { timeout: 10_000 },
  )
  return (await handle.jsonValue()) as string
}
