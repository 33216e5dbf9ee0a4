/**
 * The `ringchain serve` process under faults: SIGTERM while requests are in flight (they are
 * answered, new connections are refused, the process exits 0 within a bounded time), and hostile
 * requests of every kind that must never take it down. Runs the built CLI (`npm test` builds it
 * first), as users and CI pipelines run it.
 */
import { connect } from 'node:net'
import { expect, onTestFinished, test } from 'vitest'
import { WebSocket } from 'ws'
import { RpcWs, postRaw, refused, serve, sleep } from './helpers.js'

test('behavior: SIGTERM with requests in flight: they are answered, new connections refused, exit 0 within the grace period', { timeout: 30_000 }, async () => {
  const server = await serve(['--no-mining'])
  const { httpUrl, wsUrl, port } = server.ready
  // In flight three ways: a request whose body is still arriving, slow ones being worked on
  // (mining a few hundred blocks takes a noticeable fraction of a second), and a WebSocket one.
  const call = '{"jsonrpc":"2.0","id":3,"method":"eth_chainId","params":[]}'
  const halfSent = connect(port, '127.0.0.1')
  onTestFinished(() => {
    halfSent.destroy()
  })
  let halfAnswer = ''
  halfSent.setEncoding('utf8')
  halfSent.on('data', (chunk: string) => (halfAnswer += chunk))
  const halfClosed = new Promise((resolve) => halfSent.once('close', resolve))
  halfSent.write(`POST /v3/k HTTP/1.1\r\nHost: x\r\nContent-Length: ${call.length}\r\n\r\n${call.slice(0, 10)}`)
  const slowHttp = postRaw(httpUrl, '{"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0x100"]}')
  const ws = await RpcWs.open(wsUrl)
  onTestFinished(() => ws.close())
  const wsClosed = new Promise<number>((resolve) => ws.socket.once('close', (code) => resolve(code)))
  const slowWs = ws.call('anvil_mine', ['0x80'])
  await sleep(30)
  const signalledAt = Date.now()
  server.process.kill('SIGTERM')
  // Once the signal is handled (the mining in progress may delay that), no new connection is taken.
  await expect.poll(() => server.stderr(), { timeout: 5_000 }).toContain('ringchain: stopping (SIGTERM)')
  expect(await refused(port)).toBe(true)
  // The ones in flight are answered, in full, and told the connection closes.
  expect(await slowHttp).toMatchObject({ status: 200, text: '{"jsonrpc":"2.0","id":1,"result":"0x0"}' })
  expect((await slowHttp).headers.connection).toBe('close')
  expect(await slowWs).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' })
  halfSent.write(call.slice(10))
  await halfClosed
  expect(halfAnswer).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n[^]*\{"jsonrpc":"2.0","id":3,"result":"0x7a69"\}$/)
  // The WebSocket client is told the server is going away.
  expect(await wsClosed).toBe(1001)
  const { code, signal, at } = await server.exited
  expect({ code, signal }).toEqual({ code: 0, signal: null })
  // The shutdown grace period is 2 s; the process must not hang on anything beyond it.
  expect(at - signalledAt).toBeLessThan(4_000)
  expect(server.stderr().split('\n').filter((l) => l !== '' && l !== 'ringchain: stopping (SIGTERM)')).toEqual([])
})

test('behavior: SIGTERM on an idle server with open keep-alive and WebSocket clients exits 0 at once', { timeout: 30_000 }, async () => {
  const server = await serve()
  const ws = await RpcWs.open(server.ready.wsUrl)
  onTestFinished(() => ws.close())
  await ws.call('eth_subscribe', ['newHeads'])
  const { Agent } = await import('node:http')
  const agent = new Agent({ keepAlive: true })
  onTestFinished(() => agent.destroy())
  await postRaw(server.ready.httpUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}', agent)
  const signalledAt = Date.now()
  server.process.kill('SIGTERM')
  const { code, at } = await server.exited
  expect(code).toBe(0)
  expect(at - signalledAt).toBeLessThan(1_500)
})

test('behavior: no hostile request takes the process down, and none is logged as an error', { timeout: 30_000 }, async () => {
  const server = await serve(['--log-level', 'warn'])
  const { httpUrl, wsUrl } = server.ready
  const bodies: (string | Buffer)[] = [
    '',
    '{',
    'null',
    '[]',
    '[1,2,3]',
    '{"jsonrpc":"2.0","id":{},"method":"eth_chainId"}',
    '{"jsonrpc":"2.0","id":1e400,"method":"eth_chainId"}',
    '{"jsonrpc":"2.0","id":01,"method":"eth_chainId"}',
    '{"jsonrpc":"2.0","id":1,"method":"__proto__"}',
    '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":[{"__proto__":{"x":1}},"latest"]}',
    '{"jsonrpc":"2.0","id":1,"method":"evm_increaseTime","params":[1.5]}',
    '{"jsonrpc":"2.0","id":1,"method":"evm_setNextBlockTimestamp","params":["0xffffffffffffffffffffffffffffffffff"]}',
    '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[{"timestamp":"abc"}]}',
    '{"jsonrpc":"2.0","id":1,"method":"anvil_setNonce","params":["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","0xffffffffffffffff"]}',
    '{"jsonrpc":"2.0","id":1,"method":"anvil_setNextBlockBaseFeePerGas","params":["0xffffffffffffffffffffffffffffffffffffffff"]}',
    '{"jsonrpc":"2.0","id":1,"method":"evm_setIntervalMining","params":[1e300]}',
    '{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["0x02c0"]}',
    `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}`,
    Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    `[${Array.from({ length: 1_001 }, () => '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}').join(',')}]`,
    'x'.repeat(6 * 1024 * 1024),
  ]
  for (const body of bodies) {
    const res = await postRaw(httpUrl, body, false, body.length > 5 * 1024 * 1024 ? { expect: '100-continue' } : {})
    expect([200, 204, 413], String(body).slice(0, 80)).toContain(res.status)
  }
  // Over WebSocket too, a text frame with invalid UTF-8 and an oversized message included.
  for (const frame of [...bodies.slice(0, -1), Buffer.from([0xff])]) {
    const client = new WebSocket(wsUrl)
    await new Promise((resolve) => client.once('open', resolve))
    const done = new Promise((resolve) => {
      client.once('message', resolve)
      client.once('close', resolve)
    })
    client.send(frame, { binary: false })
    await Promise.race([done, sleep(500)])
    client.terminate()
  }
  const big = new WebSocket(wsUrl)
  await new Promise((resolve) => big.once('open', resolve))
  const closed = new Promise<number>((resolve) => big.once('close', (code) => resolve(code)))
  big.send('x'.repeat(6 * 1024 * 1024))
  expect(await closed).toBe(1009)
  // Still alive and answering, and nothing was logged as an error.
  expect((await postRaw(httpUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')).text).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}')
  expect(server.process.exitCode).toBeNull()
  expect(server.stderr().split('\n').filter((line) => line !== '' && !line.startsWith('ringchain: request') && !/websocket|body over/.test(line))).toEqual([])
  server.process.kill('SIGTERM')
  expect((await server.exited).code).toBe(0)
})
