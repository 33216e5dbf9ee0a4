// The inspector's HTTP route: `GET /inspector/<KEY>` and its views answer the built page, its
// assets come with their content types, and every refusal is the JSON-RPC error envelope the other
// paths give, with the same key rules. The page itself is tested in a browser (page.test.ts).
import { existsSync } from 'node:fs'
import { expect, onTestFinished, test } from 'vitest'
import { parseFlags, toOptions } from '../../src/cli/serveFlags.js'
import { startRingchain, type StartOptions } from '../../src/index.js'
import { startServer } from '../../src/server/server.js'

const built = existsSync(new URL('../../dist/inspector/index.html', import.meta.url))
if (!built) console.warn('skipping the inspector route tests that need the page: dist/inspector/ is missing (run `npm run build`)')

const quiet = { error() {}, warn() {} }

async function serve(options: StartOptions = {}) {
  const rc = await startRingchain({ port: 0, logger: quiet, ...options })
  onTestFinished(() => rc.close())
  return { rc, base: `http://127.0.0.1:${rc.port}` }
}

test.runIf(built)('default: GET /inspector/<key> answers the page, with its base path written in', async () => {
  const { rc } = await serve()
  expect(rc.inspectorUrl).toBe(`http://127.0.0.1:${rc.port}/inspector/ringchain`)
  const res = await fetch(rc.inspectorUrl!)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  const html = await res.text()
  expect(html).toContain('<body data-base="/inspector/ringchain">')
  expect(html).toContain('src="/inspector/ringchain/assets/app.js"')
  expect(html).not.toContain('__INSPECTOR_BASE__')
})

test.runIf(built)('behavior: every view has its own URL, answered with the page', async () => {
  const { base } = await serve()
  const views = ['/', '/pool', `/tx/0x${'ab'.repeat(32)}`, '/block/12', `/address/0x${'cd'.repeat(20)}`, `/tx/0x${'ab'.repeat(32)}?x=1`]
  for (const view of views) {
    const res = await fetch(`${base}/inspector/ringchain${view}`)
    expect(res.status, view).toBe(200)
    expect(await res.text(), view).toContain('data-base="/inspector/ringchain"')
  }
})

test.runIf(built)('behavior: assets are served with their content types; HEAD has no body', async () => {
  const { base } = await serve()
  const js = await fetch(`${base}/inspector/ringchain/assets/app.js`)
  expect(js.status).toBe(200)
  expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  expect((await js.text()).length).toBeGreaterThan(1000)
  const css = await fetch(`${base}/inspector/ringchain/assets/app.css`)
  expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
  expect(await css.text()).toContain('.ring')
  const head = await fetch(`${base}/inspector/ringchain/assets/app.js`, { method: 'HEAD' })
  expect(head.status).toBe(200)
  expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000)
})

test.runIf(built)('behavior: the key is percent-decoded for the check and encoded again in the page', async () => {
  const { base } = await serve({ apiKeys: ['a b'] })
  const res = await fetch(`${base}/inspector/a%20b/pool`)
  expect(res.status).toBe(200)
  expect(await res.text()).toContain('data-base="/inspector/a%20b"')
})

test('error: no key is 403, a key not configured is 401, with the JSON-RPC bodies of /v3', async () => {
  const { base } = await serve({ apiKeys: ['secret'] })
  for (const path of ['/inspector', '/inspector/', '/inspector//pool']) {
    const res = await fetch(base + path)
    expect(res.status, path).toBe(403)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual(await (await fetch(`${base}/v3/`, { method: 'POST', body: '{}' })).json())
  }
  const wrong = await fetch(`${base}/inspector/nope/tx/0x${'ab'.repeat(32)}`)
  expect(wrong.status).toBe(401)
  expect(await wrong.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid API key' } })
})

test.runIf(built)('error: a path that is no view nor asset is 404; not GET is 405', async () => {
  const { base } = await serve()
  for (const path of ['/inspector/ringchain/nope', '/inspector/ringchain/tx/0x12', '/inspector/ringchain/assets/missing.js', '/inspector/ringchain/assets/..%2F..%2Fpackage.json']) {
    const res = await fetch(base + path)
    expect(res.status, path).toBe(404)
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600)
  }
  const post = await fetch(`${base}/inspector/ringchain`, { method: 'POST', body: '{}' })
  expect(post.status).toBe(405)
  expect(post.headers.get('allow')).toBe('GET, HEAD')
  expect(await post.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'method not allowed: the inspector is served on GET' } })
})

test('options: inspector false answers 404 as for any unknown path, and gives no inspectorUrl', async () => {
  const { rc, base } = await serve({ inspector: false })
  expect(rc.inspectorUrl).toBeUndefined()
  const res = await fetch(`${base}/inspector/ringchain`)
  expect(res.status).toBe(404)
  expect(await res.json()).toEqual(await (await fetch(`${base}/elsewhere`)).json())
})

test('behavior: `serve --no-inspector` sets inspector: false; without it the option is left to its default', () => {
  expect(toOptions(parseFlags(['--no-inspector']), quiet).inspector).toBe(false)
  expect(toOptions(parseFlags([]), quiet).inspector).toBeUndefined()
})

test.runIf(built)('behavior: serving the page asks the chain nothing (the JSON-RPC handler is never called)', async () => {
  let calls = 0
  const server = await startServer(async () => {
    calls++
    return '{}'
  }, { logger: quiet, inspector: true })
  onTestFinished(() => server.close())
  const page = server.inspectorUrl('k')!
  for (const path of ['', '/pool', '/assets/app.js', '/assets/app.css']) expect((await fetch(page + path)).status, path).toBe(200)
  expect(calls).toBe(0)
})
