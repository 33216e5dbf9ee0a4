/**
 * Nobody let in, nothing given away: loopback by default and a warning when bound elsewhere
 * without a key; every route and method refuses a wrong key (401) or a missing one (403), on HTTP
 * and on WebSocket upgrades, without ever reaching the handler; keys are never logged or echoed;
 * dev private keys appear in the banner and the --json ready line only, never in a log line.
 */
import { networkInterfaces } from 'node:os'
import { connect } from 'node:net'
import { request } from 'node:http'
import { expect, onTestFinished, test } from 'vitest'
import { WebSocket } from 'ws'
import { startRingchain } from '../../src/index.js'
import { ApiKeys } from '../../src/server/api-keys.js'
import { RpcWs, captureLogger, postRaw, serve, type RawAnswer } from './helpers.js'

const KEY = 'Key-0f1e2d3c4b5a6978'
const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
const MINE = '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}'
const INVALID_KEY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid API key"}}'

/** Any request, any method, raw path: node:http, so the path goes out exactly as written. */
function raw(port: number, method: string, path: string, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A WebSocket upgrade on a raw path: the HTTP status it was refused with, or 101. */
function upgrade(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`)
    ws.once('open', () => {
      ws.terminate()
      resolve(101)
    })
    ws.once('unexpected-response', (req, res) => {
      res.resume()
      req.destroy()
      resolve(res.statusCode ?? 0)
    })
    ws.once('error', (e) => (e.message.startsWith('Unexpected server response') ? undefined : reject(e)))
  })
}

test('behavior: binds 127.0.0.1 by default, unreachable from the machine\'s other addresses', async () => {
  const rc = await startRingchain({ port: 0 })
  onTestFinished(() => rc.close())
  expect(rc.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
  const external = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)
  if (external === undefined) return // no other address on this machine: nothing more to show
  const reached = await new Promise<boolean>((resolve) => {
    const socket = connect(rc.port, external.address)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
  expect(reached).toBe(false)
})

test('behavior: `serve --host 0.0.0.0` without --api-key warns; with a key, or on loopback, it does not', { timeout: 30_000 }, async () => {
  const warning = /warning: listening on 0\.0\.0\.0 without --api-key: anyone who can reach this port can use the chain and its dev accounts/
  const open = await serve(['--host', '0.0.0.0'])
  expect(open.stderr()).toMatch(warning)
  const keyed = await serve(['--host', '0.0.0.0', '--api-key', KEY])
  const loopback = await serve([])
  for (const s of [open, keyed, loopback]) s.process.kill('SIGTERM')
  await Promise.all([open, keyed, loopback].map((s) => s.exited))
  expect(keyed.stderr()).not.toMatch(/warning/)
  expect(loopback.stderr()).not.toMatch(/warning/)
  // The key is in the ready line's URLs, on stdout, for the caller who gave it; never on stderr.
  expect(keyed.ready.httpUrl).toContain(KEY)
  expect(keyed.stderr()).not.toContain(KEY)
})

test('error: every route and method refuses a wrong key (401) or a missing one (403), and never reaches the chain', { timeout: 30_000 }, async () => {
  const log = captureLogger()
  const rc = await startRingchain({ port: 0, apiKeys: [KEY, 'other-key'], mining: { mode: 'manual' }, logger: log.logger })
  onTestFinished(() => rc.close())
  const port = rc.port
  const wrongKeys = [
    'wrong',
    KEY.toLowerCase(),
    KEY.toUpperCase(),
    KEY.slice(0, -1),
    `${KEY}x`,
    `${KEY}%20`,
    `%20${KEY}`,
    encodeURIComponent(`${KEY}\u0000`),
    `${KEY.slice(0, 4)}%2F${KEY.slice(4)}`,
    'other-keyx',
    'a'.repeat(10_000),
  ]
  for (const wrong of wrongKeys) {
    for (const path of [`/v3/${wrong}`, `/v3/${wrong}/`, `/v3/${wrong}?key=${KEY}`]) {
      for (const method of ['POST', 'GET', 'PUT', 'DELETE', 'PATCH']) {
        const res = await raw(port, method, path, MINE)
        expect([res.status, res.headers['content-type'], res.text], `${method} ${path.slice(0, 60)}`).toEqual([401, 'application/json', INVALID_KEY])
      }
      expect((await raw(port, 'HEAD', path)).status).toBe(401)
      expect(await upgrade(port, `/ws${path}`)).toBe(401)
    }
  }
  for (const path of ['/v3', '/v3/', '/v3?x=1', '/v3//']) {
    const res = await raw(port, 'POST', path, MINE)
    expect([res.status, res.text], path).toEqual([403, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"API key required: the path is /v3/<API key> (WebSocket: /ws/v3/<API key>)"}}'])
    expect(await upgrade(port, `/ws${path}`)).toBe(403)
  }
  // Other paths: 404 or 426, never the handler; a key in another place (query, header) is no key.
  for (const path of [`/?key=${KEY}`, `/v3x/${KEY}`, `/v2/${KEY}`, `/v3/${KEY}/extra`, `/ws/v3/${KEY}`]) {
    expect([404, 426], path).toContain((await raw(port, 'POST', path, MINE)).status)
  }
  // CORS preflights are answered before the key check (they carry no credentials), and carry no data.
  const preflight = await raw(port, 'OPTIONS', '/v3/wrong')
  expect([preflight.status, preflight.text]).toEqual([204, ''])
  // Nothing reached the chain: no block was mined, no request was served.
  expect(rc.chain.head.number).toBe(0n)
  // The right keys work, over both transports.
  expect((await postRaw(rc.urls(KEY).httpUrl, CHAIN_ID)).text).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
  expect((await postRaw(rc.urls('other-key').httpUrl, CHAIN_ID)).status).toBe(200)
  expect(await upgrade(port, `/ws/v3/${KEY}`)).toBe(101)
  expect(await upgrade(port, `/ws/v3/${encodeURIComponent(KEY)}`)).toBe(101)
  expect(log.errors()).toEqual([])
})

test('behavior: API keys are never logged nor echoed, right or wrong, whatever goes wrong', { timeout: 30_000 }, async () => {
  const log = captureLogger()
  const wrong = 'Wrong-Key-5a5a5a5a'
  const rc = await startRingchain({
    port: 0,
    apiKeys: [KEY, `${KEY}-2`],
    isolate: { maxChains: 1 },
    logger: log.logger,
    server: { maxBodyBytes: 1_000, maxWsMessageBytes: 1_000, maxJsonDepth: 4, maxConnections: 8 },
  })
  onTestFinished(() => rc.close())
  const answers: string[] = []
  const keep = (a: RawAnswer) => answers.push(JSON.stringify(a.headers) + a.text)
  for (const key of [KEY, wrong]) {
    const url = rc.urls(key).httpUrl
    for (const body of [CHAIN_ID, '{', '[[[[[[1]]]]]]', 'x'.repeat(2_000), '{"jsonrpc":"2.0","id":1,"method":"nope"}', '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x1"]}']) {
      keep(await postRaw(url, body).catch(() => ({ status: 0, headers: {}, text: '' })))
    }
    keep(await raw(rc.port, 'GET', `/v3/${key}`))
    const status = await upgrade(rc.port, `/ws/v3/${key}`)
    answers.push(String(status))
  }
  // WebSocket: answers, an error, a message over the limit.
  const ws = await RpcWs.open(rc.wsUrl)
  answers.push(JSON.stringify(await ws.call('eth_subscribe', ['newHeads'])), JSON.stringify(await ws.call('eth_nope', [])))
  ws.socket.send('x'.repeat(2_000))
  await new Promise((resolve) => ws.socket.once('close', resolve))
  // Isolate mode refuses a second key's chain: its message names no key.
  const second = await postRaw(rc.urls(`${KEY}-2`).httpUrl, CHAIN_ID)
  expect(JSON.parse(second.text).error.code).toBe(-32005)
  keep(second)
  expect(log.lines.length).toBeGreaterThan(0)
  for (const secret of [KEY, wrong, KEY.toLowerCase()]) {
    expect(log.lines.filter((l) => l.toLowerCase().includes(secret.toLowerCase())), secret).toEqual([])
    expect(answers.filter((a) => a.toLowerCase().includes(secret.toLowerCase())), secret).toEqual([])
  }
})

test('behavior: keys are compared whole, whatever their length or characters', () => {
  const keys = new ApiKeys([KEY, 'ключ-🔑', 'x'])
  for (const accepted of [KEY, 'ключ-🔑', 'x']) expect(keys.accepts(accepted)).toBe(true)
  for (const refused of ['', KEY.slice(0, -1), `${KEY} `, 'ключ', 'X', 'x'.repeat(100_000), `${KEY}\u0000`]) expect(keys.accepts(refused), refused.slice(0, 20)).toBe(false)
  expect(() => new ApiKeys([''])).toThrow('apiKeys: every key must be a non-empty string')
})

test('behavior: dev private keys are printed in the banner and the --json line only, never in a log line', { timeout: 30_000 }, async () => {
  const json = await serve(['--log-level', 'debug'])
  const banner = await serve(['--log-level', 'debug'], { json: false })
  const keys = json.ready.accounts.map((a) => a.privateKey.slice(2).toLowerCase())
  expect(keys).toHaveLength(10)
  for (const server of [json, banner]) {
    const { httpUrl, wsUrl } = server.ready
    const [a, b] = json.ready.accounts
    const calls: [string, unknown[]][] = [
      ['eth_accounts', []],
      ['eth_sendTransaction', [{ from: a!.address, to: b!.address, value: '0x1' }]],
      ['eth_sendTransaction', [{ from: a!.address, to: b!.address, value: '0xffffffffffffffffffffffffffffffff' }]],
      ['eth_signTransaction', [{ from: a!.address, to: b!.address, value: '0x1' }]],
      ['eth_sign', [a!.address, '0x1234']],
      ['personal_sign', ['0x1234', a!.address]],
      ['eth_call', [{ from: a!.address, data: '0xfe' }]],
      ['anvil_impersonateAccount', [b!.address]],
      ['eth_nope', []],
    ]
    const answers: string[] = []
    for (const [method, params] of calls) answers.push((await postRaw(httpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).text)
    const ws = await RpcWs.open(wsUrl)
    answers.push(JSON.stringify(await ws.call('eth_sendTransaction', [{ from: a!.address, to: b!.address, value: '0x2' }])))
    ws.close()
    server.process.kill('SIGTERM')
    expect((await server.exited).code).toBe(0)
    // Debug logging did log every request...
    expect(server.stderr()).toMatch(/eth_sendTransaction/)
    const stderr = server.stderr().toLowerCase()
    for (const key of keys) {
      expect(stderr.includes(key), 'a private key on stderr').toBe(false)
      expect(answers.some((a) => a.toLowerCase().includes(key)), 'a private key in an answer').toBe(false)
    }
  }
  // ...and stdout holds them exactly where they belong: the ready line, the banner.
  const [readyLine, ...rest] = json.stdout().split('\n')
  for (const key of keys) expect(readyLine!.toLowerCase()).toContain(key)
  expect(rest.join('')).toBe('')
  const bannerText = banner.stdout().toLowerCase()
  for (const key of keys) expect(bannerText.split(key).length - 1, 'each key once in the banner').toBe(1)
})
