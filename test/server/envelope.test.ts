// The JSON-RPC envelope and its transport, end to end against a real ringchain on port 0: every rule
// of decisions.md's "JSON-RPC envelope" and "Authentication" sections, as a client sees it over HTTP
// and WebSocket. (server.test.ts covers the transport alone, with fake handlers.)

import { afterEach, describe, expect, test, vi } from 'vitest'
import type { RunningRingchain } from '../../src/index.js'
import { type HttpAnswer, nextMessage, openWs, post, refusedUpgrade, start, wsRoundTrip } from '../helpers/rpc.js'

const ADDRESS = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const KEY_REQUIRED = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"API key required: the path is /v3/<API key> (WebSocket: /ws/v3/<API key>)"}}'
const INVALID_KEY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid API key"}}'

/** Base URL of the server (no path). */
function base(rc: RunningRingchain): string {
  return `http://127.0.0.1:${rc.port}`
}

/** POSTs a raw body; a JSON-RPC answer always comes with HTTP 200 and application/json. */
async function exchange(rc: RunningRingchain, body: string): Promise<{ answer: HttpAnswer; json: unknown }> {
  const answer = await post(rc.httpUrl, body)
  expect(answer.status, body).toBe(200)
  expect(answer.headers.get('content-type')).toBe('application/json')
  return { answer, json: JSON.parse(answer.text) }
}

const request = (id: unknown, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params })

afterEach(() => {
  vi.restoreAllMocks()
})

describe('ids', () => {
  test('behavior: number, string and null ids are echoed exactly', async () => {
    const rc = await start()
    for (const id of [0, 1, -7, 1.5, 2 ** 53 - 1, 'abc', '', '1', 'ünïcödé', null]) {
      const { answer, json } = await exchange(rc, JSON.stringify(request(id, 'eth_chainId')))
      expect(answer.text, String(id)).toBe(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":"0x7a69"}`)
      expect(json).toEqual({ jsonrpc: '2.0', id, result: '0x7a69' })
    }
  })

  // Known bug, src/rpc/dispatcher.ts: the body goes through JSON.parse, so an integer id beyond 2^53
  // comes back rounded (12345678901234567890 → 12345678901234567000) and 1e400 comes back null.
  // decisions.md: ids are "echoed exactly" (geth echoes the raw bytes). Flip to `test` once fixed.
  test('behavior: an integer id beyond 2^53 is echoed exactly', async () => {
    const rc = await start()
    const { answer } = await exchange(rc, '{"jsonrpc":"2.0","id":12345678901234567890,"method":"eth_chainId","params":[]}')
    expect(answer.text).toBe('{"jsonrpc":"2.0","id":12345678901234567890,"result":"0x7a69"}')
  })

  test('behavior: errors echo the id too', async () => {
    const rc = await start()
    const { json } = await exchange(rc, JSON.stringify(request('q-1', 'eth_nope')))
    expect(json).toEqual({ jsonrpc: '2.0', id: 'q-1', error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } })
  })

  test('error: id of another type is an invalid request', async () => {
    const rc = await start()
    for (const id of [{}, [1], true]) {
      const { json } = await exchange(rc, JSON.stringify(request(id, 'eth_chainId')))
      expect(json, JSON.stringify(id)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } })
    }
  })
})

describe('notifications', () => {
  test('behavior: a notification is run but not answered: HTTP 204, empty body', async () => {
    const rc = await start()
    const answer = await post(rc.httpUrl, JSON.stringify({ jsonrpc: '2.0', method: 'evm_mine', params: [] }))
    expect(answer.status).toBe(204)
    expect(answer.text).toBe('')
    const { json } = await exchange(rc, JSON.stringify(request(1, 'eth_blockNumber')))
    expect(json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' })
  })

  test('behavior: a failing notification is not answered either', async () => {
    const rc = await start()
    for (const body of [
      { jsonrpc: '2.0', method: 'eth_nope' },
      { jsonrpc: '2.0', method: 'eth_getStorageAt', params: ['0x12'] },
    ]) {
      const answer = await post(rc.httpUrl, JSON.stringify(body))
      expect(answer.status, JSON.stringify(body)).toBe(204)
      expect(answer.text).toBe('')
    }
  })

  test('behavior: a batch of notifications only gets HTTP 204', async () => {
    const rc = await start()
    const answer = await post(
      rc.httpUrl,
      JSON.stringify([
        { jsonrpc: '2.0', method: 'evm_mine' },
        { jsonrpc: '2.0', method: 'evm_mine', params: [] },
      ]),
    )
    expect(answer.status).toBe(204)
    expect(answer.text).toBe('')
    expect(rc.chain.head.number).toBe(2n)
  })
})

describe('batches', () => {
  test('behavior: a batch is answered in order; notifications get no entry', async () => {
    const rc = await start()
    const batch = [
      request(1, 'eth_chainId'),
      request('two', 'eth_nope'),
      { jsonrpc: '2.0', method: 'evm_mine', params: [] }, // notification: run, not answered
      request(3, 'eth_getStorageAt', [ADDRESS, '0x0', 'tomorrow']),
      42, // not a request object
      request(null, 'eth_blockNumber'), // sees the block the notification mined
    ]
    const { json } = await exchange(rc, JSON.stringify(batch))
    expect(json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 'two', error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'invalid argument 2: hex string without 0x prefix' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
      { jsonrpc: '2.0', id: null, result: '0x1' },
    ])
  })

  test('behavior: a batch of one is still an array', async () => {
    const rc = await start()
    const { json } = await exchange(rc, JSON.stringify([request(5, 'eth_chainId')]))
    expect(json).toEqual([{ jsonrpc: '2.0', id: 5, result: '0x7a69' }])
  })

  test('error: empty batch is one -32600 object, not an array', async () => {
    const rc = await start()
    const { answer } = await exchange(rc, '[]')
    expect(answer.text).toMatchInlineSnapshot(`"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}"`)
  })
})

describe('envelope errors', () => {
  test('error: invalid JSON', async () => {
    const rc = await start()
    for (const body of ['{', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"', '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},', 'nope', '']) {
      const { json } = await exchange(rc, body)
      expect(json, body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    }
  })

  test('error: missing or wrong jsonrpc', async () => {
    const rc = await start()
    for (const jsonrpc of [undefined, '1.0', '2', 2, null]) {
      const { json } = await exchange(rc, JSON.stringify({ jsonrpc, id: 9, method: 'eth_chainId', params: [] }))
      expect(json, String(jsonrpc)).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'invalid request' } })
    }
  })

  test('error: method missing or not a string', async () => {
    const rc = await start()
    for (const method of [undefined, 1, null, ['eth_chainId'], { name: 'eth_chainId' }]) {
      const { json } = await exchange(rc, JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: [] }))
      expect(json, JSON.stringify(method)).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'invalid request' } })
    }
  })

  test('error: params that are not an array', async () => {
    const rc = await start()
    for (const params of [{ address: ADDRESS }, 'latest', 1, true]) {
      const { json } = await exchange(rc, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'eth_getStorageAt', params }))
      expect(json, JSON.stringify(params)).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'invalid request' } })
    }
  })

  test('error: a body that is not a request object', async () => {
    const rc = await start()
    for (const body of ['1', '"eth_chainId"', 'null', 'true']) {
      const { json } = await exchange(rc, body)
      expect(json, body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } })
    }
  })

  test('error: unknown method', async () => {
    const rc = await start()
    for (const method of ['eth_nope', 'toString', '__proto__', 'constructor', '']) {
      const { json } = await exchange(rc, JSON.stringify(request(1, method)))
      expect(json, method).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: `the method ${method} does not exist/is not available` } })
    }
  })

  test('error: bad params name the argument', async () => {
    const rc = await start()
    const cases: [unknown[], string][] = [
      [['0x12', '0x0'], 'invalid argument 0: hex string has length 2, want 40 for common.Address'],
      [[ADDRESS, 2], 'invalid argument 1: json: cannot unmarshal number into Go value of type string'],
      [[ADDRESS, '0x0', '0xzz'], 'invalid argument 2: invalid hex string'],
    ]
    for (const [params, message] of cases) {
      const { json } = await exchange(rc, JSON.stringify(request(1, 'eth_getStorageAt', params)))
      expect(json, message).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message } })
    }
  })

  test('behavior: JSON-RPC errors travel with HTTP 200, also chain errors with data', async () => {
    const rc = await start({ window: 2 })
    await rc.chain.mine(4n)
    const { json } = await exchange(rc, JSON.stringify(request(1, 'eth_getStorageAt', [ADDRESS, '0x0', '0x1'])))
    expect(json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: 4444,
        message: 'pruned history unavailable: block 1 is outside the served window 3..4',
        data: { requested: '0x1', oldest: '0x3', head: '0x4' },
      },
    })
  })

  test('error: an internal failure is -32603 with a generic message: no stack trace on the wire', async () => {
    const rc = await start()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    // A bug inside the chain: a plain TypeError thrown from under a handler.
    rc.chain.mine = () => {
      throw new TypeError('boom at Chain.mine (chain.ts:1:1)')
    }
    const { answer, json } = await exchange(rc, JSON.stringify(request(1, 'evm_mine', [])))
    expect(json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'internal error' } })
    expect(answer.text).not.toMatch(/\bat |\.ts:|\.js:|Error\b/)
    // The detail goes to the log instead.
    expect(logged).toHaveBeenCalled()
  })

  test('error: no error answer carries a stack trace', async () => {
    const rc = await start()
    const bodies = [
      '{',
      '[]',
      '{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}',
      JSON.stringify(request(1, 'eth_nope')),
      JSON.stringify(request(1, 'eth_getStorageAt', ['0xzz', '0x0'])),
      JSON.stringify(request(1, 'eth_getStorageAt', [ADDRESS, '0x0', '0x99'])),
      JSON.stringify(request(1, 'eth_getStorageAt', [ADDRESS, '0x0', `0x${'ab'.repeat(32)}`])),
      JSON.stringify(request(1, 'eth_sendRawTransaction', ['0x01'])),
      JSON.stringify(request(1, 'eth_call', [{ to: ADDRESS, data: '0xzz' }])),
    ]
    for (const body of bodies) {
      const { answer } = await exchange(rc, body)
      expect(answer.text, body).toMatch(/"error":\{"code":-?\d+,"message":"[^"]*"/)
      expect(answer.text, body).not.toMatch(/\n|\bat [\w.<]+ \(|\.ts:\d|\.js:\d|node_modules/)
    }
  })
})

describe('authentication and routing', () => {
  test('error: a key that is not configured gets 401 with the JSON-RPC error "invalid API key"', async () => {
    const rc = await start({ apiKeys: ['the-right-key'] })
    expect(rc.httpUrl).toBe(`${base(rc)}/v3/the-right-key`)
    const wrong = await post(`${base(rc)}/v3/the-wrong-key`, JSON.stringify(request(1, 'eth_chainId')))
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('content-type')).toBe('application/json')
    expect(wrong.text).toBe(INVALID_KEY)
    const right = await post(rc.httpUrl, JSON.stringify(request(1, 'eth_chainId')))
    expect(right.status).toBe(200)
    expect(JSON.parse(right.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
  })

  test('behavior: without configured keys any non-empty key is accepted', async () => {
    const rc = await start()
    for (const key of ['ringchain', 'abc', '0123456789abcdef0123456789abcdef']) {
      const answer = await post(`${base(rc)}/v3/${key}`, JSON.stringify(request(1, 'eth_chainId')))
      expect(answer.status, key).toBe(200)
    }
  })

  test('error: /v3 and /v3/ without a key get 403 with a JSON-RPC error', async () => {
    const rc = await start({ apiKeys: ['k'] })
    for (const path of ['/v3', '/v3/']) {
      const answer = await post(base(rc) + path, JSON.stringify(request(1, 'eth_chainId')))
      expect(answer.status, path).toBe(403)
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(answer.text).toBe(KEY_REQUIRED)
    }
    // The same without configured keys.
    const open = await start()
    expect((await post(`${base(open)}/v3/`, '{}')).status).toBe(403)
  })

  test('behavior: / serves the default key: the same chain as /v3/ringchain, over HTTP and WebSocket', async () => {
    const rc = await start()
    expect(rc.httpUrl).toBe(`${base(rc)}/v3/ringchain`)
    await exchange(rc, JSON.stringify(request(1, 'evm_mine')))
    const viaRoot = await post(`${base(rc)}/`, JSON.stringify(request(1, 'eth_blockNumber')))
    expect(viaRoot.status).toBe(200)
    expect(JSON.parse(viaRoot.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' })
    expect(JSON.parse(await wsRoundTrip(`ws://127.0.0.1:${rc.port}/`, JSON.stringify(request(2, 'eth_blockNumber'))))).toEqual({ jsonrpc: '2.0', id: 2, result: '0x1' })
  })

  test('error: with --api-key keys configured, / is not served (404): every request names its key', async () => {
    const rc = await start({ apiKeys: ['k'] })
    expect((await post(`${base(rc)}/`, JSON.stringify(request(1, 'eth_chainId')))).status).toBe(404)
    expect((await refusedUpgrade(`ws://127.0.0.1:${rc.port}/`)).status).toBe(404)
  })

  test('error: other paths get 404', async () => {
    const rc = await start()
    for (const path of ['/v2/ringchain', '/v3/ringchain/extra', '/ringchain', '/v4/ringchain']) {
      const answer = await post(base(rc) + path, JSON.stringify(request(1, 'eth_chainId')))
      expect(answer.status, path).toBe(404)
    }
  })

  test('error: a WebSocket upgrade with a bad key is refused with 401 before the handshake', async () => {
    const rc = await start({ apiKeys: ['the-right-key'] })
    const refused = await refusedUpgrade(`ws://127.0.0.1:${rc.port}/ws/v3/the-wrong-key`)
    expect(refused).toEqual({ status: 401, contentType: 'application/json', body: INVALID_KEY })
    const missing = await refusedUpgrade(`ws://127.0.0.1:${rc.port}/ws/v3/`)
    expect(missing).toEqual({ status: 403, contentType: 'application/json', body: KEY_REQUIRED })
    // The right key opens.
    expect(await wsRoundTrip(rc.wsUrl, JSON.stringify(request(1, 'eth_chainId')))).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
  })

  test('behavior: CORS preflight is allowed from any origin, and answers carry Allow-Origin', async () => {
    const rc = await start({ apiKeys: ['k'] })
    const preflight = await fetch(rc.httpUrl, {
      method: 'OPTIONS',
      headers: { Origin: 'https://dapp.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      signal: AbortSignal.timeout(5_000),
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST')
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
    const answer = await post(rc.httpUrl, JSON.stringify(request(1, 'eth_chainId')), { 'content-type': 'application/json', origin: 'https://dapp.example' })
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('websocket', () => {
  test('behavior: the same request over WebSocket gets the same answer as over HTTP', async () => {
    const rc = await start()
    await rc.chain.mine(2n)
    const bodies = [
      JSON.stringify(request(1, 'eth_blockNumber')),
      JSON.stringify(request('s', 'eth_getStorageAt', [ADDRESS, '0x0', 'latest'])),
      JSON.stringify(request(null, 'eth_getStorageAt', [ADDRESS, '0x0', '0x99'])),
      JSON.stringify([request(1, 'eth_chainId'), request(2, 'eth_nope'), { jsonrpc: '2.0', method: 'eth_chainId' }]),
      JSON.stringify(request(3, 'eth_getTransactionReceipt', [`0x${'00'.repeat(32)}`])),
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'eth_chainId', params: 'x' }),
      '[]',
      '{',
    ]
    for (const body of bodies) {
      const overHttp = (await exchange(rc, body)).answer.text
      expect(await wsRoundTrip(rc.wsUrl, body), body).toBe(overHttp)
    }
  })

  test('behavior: a notification over WebSocket gets no answer', async () => {
    const rc = await start()
    const ws = await openWs(rc.wsUrl)
    const first = nextMessage(ws)
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId', params: [] }))
    ws.send(JSON.stringify([{ jsonrpc: '2.0', method: 'eth_chainId' }]))
    ws.send(JSON.stringify(request(8, 'eth_chainId')))
    // Messages are answered concurrently, but the notifications have nothing to send.
    expect(await first).toBe('{"jsonrpc":"2.0","id":8,"result":"0x7a69"}')
    ws.close()
  })
})
