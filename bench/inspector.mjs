#!/usr/bin/env node
// Is the inspector page responsive on a busy chain? Starts `ringchain serve` (dist/, its own
// process), opens the inspector in Chromium headless (puppeteer-core, /usr/bin/chromium or
// $CHROMIUM_PATH), and measures inside the page, first idle, then while pre-signed transfers are
// sent at a steady rate (default 500 tx/s, automine: a block per transfer):
//   - event-loop lag: how late a 10 ms timer fires (p50 / p99 / max);
//   - frame interval: time between animation frames (p99 / max);
//   - navigation: clicking "pool" until the pool view is drawn, then "ring" until its rows are (median / max);
//   - rows in the ring table (capped at 128 whatever the rate), the share of the page's main thread
//     spent on tasks (Chrome's TaskDuration: the page's own cost, whatever else the machine runs),
//     and the JSON-RPC requests the page sent.
// Usage: npm run build && node bench/inspector.mjs [--rate 500] [--seconds 10]
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import puppeteer from 'puppeteer-core'
import { signTransfers } from './fire.mjs'

const { values } = parseArgs({ options: { rate: { type: 'string', default: '500' }, seconds: { type: 'string', default: '10' } } })
const RATE = Number(values.rate)
const SECONDS = Number(values.seconds)
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p))
if (CHROMIUM === undefined) {
  console.error('bench/inspector.mjs needs Chromium: apt-get install chromium, or set CHROMIUM_PATH')
  process.exit(1)
}

const server = await startServer()
const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] })
try {
  const page = await browser.newPage()
  await page.setViewport({ width: 1280, height: 800 })
  let requests = 0
  page.on('request', (r) => {
    if (r.url().includes('/v3/')) requests++
  })
  await page.goto(server.inspectorUrl)
  await page.waitForSelector('table.ring tbody tr')

  const idle = await measure(page, SECONDS / 2, () => undefined)
  requests = 0
  const raws = signTransfers(0, Math.ceil(RATE * SECONDS))
  const firing = fireAtRate(server.httpUrl, raws, RATE)
  const busy = await measure(page, SECONDS, () => firing.sent)
  const busyRequests = requests
  const { sent, seconds } = await firing.done
  const head = Number(await rpc(server.httpUrl, 'eth_blockNumber'))

  console.log(`inspector bench: ${RATE} tx/s asked for ${SECONDS} s; ${sent} transfers sent in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)} tx/s), head ${head}`)
  console.log(`                      lag p50 / p99 / max     frame p99 / max     navigation median / max     rows max   main thread busy`)
  for (const [name, m] of [['idle', idle], ['busy', busy]]) {
    console.log(
      `  ${name.padEnd(6)}            ${ms(m.lag.p50)} / ${ms(m.lag.p99)} / ${ms(m.lag.max)}` +
        `      ${ms(m.frame.p99)} / ${ms(m.frame.max)}      ${ms(m.nav.median)} / ${ms(m.nav.max)}            ${String(m.rows).padStart(3)}   ${(m.mainThread * 100).toFixed(1)}%`,
    )
  }
  console.log(`  JSON-RPC requests the page sent while busy: ${busyRequests} (${(busyRequests / SECONDS).toFixed(1)}/s), for ${head} blocks`)
} finally {
  await browser.close()
  server.child.kill('SIGTERM')
}

function ms(x) {
  return `${x.toFixed(1)} ms`.padStart(8)
}

/** Probes in the page for `seconds`, navigating pool ⇄ ring once a second. */
async function measure(page, seconds) {
  await page.evaluate(() => {
    const probe = (window.__probe = { lags: [], frames: [], stop: false })
    let expected = performance.now() + 10
    const tick = () => {
      const now = performance.now()
      probe.lags.push(Math.max(0, now - expected))
      expected = now + 10
      if (!probe.stop) setTimeout(tick, 10)
    }
    setTimeout(tick, 10)
    let last = performance.now()
    const frame = (now) => {
      probe.frames.push(now - last)
      last = now
      if (!probe.stop) requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  })
  const before = await page.metrics()
  const navs = []
  let rows = 0
  const end = Date.now() + seconds * 1000
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 700))
    navs.push(await navigate(page, '/pool', () => document.querySelector('h1')?.textContent === 'The pool'))
    navs.push(await navigate(page, '', () => document.querySelectorAll('table.ring tbody tr').length > 0))
    rows = Math.max(rows, await page.evaluate(() => document.querySelectorAll('table.ring tbody tr').length))
  }
  const probe = await page.evaluate(() => {
    window.__probe.stop = true
    return { lags: window.__probe.lags, frames: window.__probe.frames.slice(1) }
  })
  const after = await page.metrics()
  // The share of the page's main thread spent on tasks (script, layout, style): the page's own cost, however busy the machine.
  const mainThread = (after.TaskDuration - before.TaskDuration) / (after.Timestamp - before.Timestamp)
  return { lag: stats(probe.lags), frame: stats(probe.frames), nav: stats(navs), rows, mainThread }
}

/** Clicks the nav link to `path` and waits (in the page) until `drawn()` holds: milliseconds. */
function navigate(page, path, drawn) {
  return page.evaluate(
    (path, drawn) =>
      new Promise((resolve) => {
        const isDrawn = new Function(`return (${drawn})()`)
        const link = [...document.querySelectorAll('.nav a')].find((a) => a.getAttribute('href')?.endsWith(path === '' ? document.body.dataset.base : path))
        const t0 = performance.now()
        link.click()
        const check = () => (isDrawn() ? resolve(performance.now() - t0) : requestAnimationFrame(check))
        check()
      }),
    path,
    drawn.toString(),
  )
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b)
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0
  return { p50: at(0.5), median: at(0.5), p99: at(0.99), max: s.at(-1) ?? 0 }
}

/**
 * Sends `raws` at `rate` per second: every 10 ms, what is due goes out as one JSON-RPC batch (at
 * most 200), one request in flight at a time. Automine mines what arrives together into one block
 * or a few, so the ring gets fewer blocks than transfers; sending each transfer alone, this 2-core
 * machine under its usual load kept up with ~40 a second, not 500.
 */
function fireAtRate(httpUrl, raws, rate) {
  const state = { sent: 0 }
  const t0 = performance.now()
  state.done = (async () => {
    let refused = 0
    while (state.sent < raws.length) {
      const due = Math.min(raws.length, state.sent + 200, Math.floor(((performance.now() - t0) / 1000) * rate))
      if (due <= state.sent) {
        await new Promise((r) => setTimeout(r, 10))
        continue
      }
      const batch = raws.slice(state.sent, due).map((raw, i) => ({ jsonrpc: '2.0', id: state.sent + i, method: 'eth_sendRawTransaction', params: [raw] }))
      state.sent = due
      const answers = await post(httpUrl, JSON.stringify(batch))
      for (const a of Array.isArray(answers) ? answers : [answers]) {
        if (a.error !== undefined && refused++ === 0) console.error(`first refusal: ${a.error.message}`)
      }
    }
    if (refused > 0) console.error(`${refused} transfers refused`)
    return { sent: state.sent, seconds: (performance.now() - t0) / 1000 }
  })()
  return state
}

/** POSTs `body`; once more if the keep-alive connection was closed under the request (ECONNRESET). */
async function post(url, body) {
  const send = async () => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()
  try {
    return await send()
  } catch {
    return send()
  }
}

async function rpc(url, method, params = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()).result
}

/** `ringchain serve --port 0 --json` from dist/: resolves with its URLs once it answers. */
function startServer() {
  const main = new URL('../dist/cli/main.js', import.meta.url).pathname
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--json'], { stdio: ['pipe', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n').find((l) => l.startsWith('{'))
      if (line === undefined) return
      const ready = JSON.parse(line)
      resolve({ child, httpUrl: ready.httpUrl, inspectorUrl: ready.httpUrl.replace('/v3/', '/inspector/') })
    })
    child.on('exit', (code) => reject(new Error(`ringchain serve exited with ${code}`)))
  })
}
