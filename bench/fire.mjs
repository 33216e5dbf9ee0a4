// The `fire` section of bench/run.mjs: pre-signed transfers sent back to back over HTTP without
// waiting for receipts, `inFlight` requests outstanding at a time on as many keep-alive
// connections, automine on. The rate is transactions per second from the first send until the
// last one is included (the sender's `latest` nonce reaches the end); then, outside the timing,
// the recipient's balance must have grown by one wei per transfer. Each run uses nonces of its own, the same ones on
// every node, so the nodes take turns on identical work.
//
// The client speaks HTTP/1.1 by hand on node:net (as load.mjs's raw reads do): node:http's client
// costs more CPU per request than the servers measured here.

import { connect } from 'node:net'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'

// The `test … junk` mnemonic's account #3: the mine section sends from #0 and #2.
const KEY = hexToBytes('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6')
const SENDER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
const RECIPIENT = '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65'
const TIMEOUT_MS = 120_000

/** `count` signed transfers with nonces `from`, `from + 1`, … */
export function signTransfers(from, count) {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })
  return Array.from({ length: count }, (_, i) =>
    bytesToHex(createFeeMarket1559Tx({ chainId: 31337n, nonce: BigInt(from + i), maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n, to: RECIPIENT, value: 1n, gasLimit: 21_000n }, { common }).sign(KEY).serialize()),
  )
}

/** Sends every raw transaction, `inFlight` at a time; resolves with their hashes, in order. */
function sendAll(httpUrl, raws, inFlight) {
  const url = new URL(httpUrl)
  const hashes = new Array(raws.length)
  let next = 0
  const connection = () =>
    new Promise((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true })
      let buffer = null
      let current = -1
      const send = () => {
        if (next >= raws.length) {
          socket.end()
          return resolve()
        }
        current = next++
        const body = `{"jsonrpc":"2.0","id":${current},"method":"eth_sendRawTransaction","params":["${raws[current]}"]}`
        socket.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
      }
      socket.on('connect', send)
      socket.on('error', reject)
      socket.on('data', (chunk) => {
        buffer = buffer === null ? chunk : Buffer.concat([buffer, chunk])
        const headEnd = buffer.indexOf('\r\n\r\n')
        if (headEnd === -1) return
        const length = Number(/content-length:\s*(\d+)/i.exec(buffer.subarray(0, headEnd).toString('latin1'))?.[1])
        if (buffer.length < headEnd + 4 + length) return
        const answer = JSON.parse(buffer.subarray(headEnd + 4, headEnd + 4 + length).toString())
        buffer = buffer.length === headEnd + 4 + length ? null : buffer.subarray(headEnd + 4 + length)
        if (answer.error !== undefined) return reject(new Error(`transaction ${current}: ${answer.error.message}`))
        hashes[current] = answer.result
        send()
      })
    })
  return Promise.all(Array.from({ length: Math.min(inFlight, raws.length) }, connection)).then(() => hashes)
}

/**
 * One fire run on `node`: sends `raws` (nonces `firstNonce`…), waits until all are included,
 * checks their receipts. `rpc(url, method, params)` is run.mjs's untimed JSON-RPC call.
 */
export async function fire(node, raws, firstNonce, inFlight, rpc) {
  const end = firstNonce + raws.length
  const balance = async () => BigInt(await rpc(node.httpUrl, 'eth_getBalance', [RECIPIENT, 'latest']))
  const [balanceBefore, blockBefore] = [await balance(), Number(await rpc(node.httpUrl, 'eth_blockNumber'))]
  const started = performance.now()
  const hashes = await sendAll(node.httpUrl, raws, inFlight)
  const sentSeconds = (performance.now() - started) / 1000
  for (;;) {
    if (Number(await rpc(node.httpUrl, 'eth_getTransactionCount', [SENDER, 'latest'])) >= end) break
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`${node.name}: not all ${raws.length} transactions included within ${TIMEOUT_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  const seconds = (performance.now() - started) / 1000
  // Receipts of the first ones have left ringchain's window by now: each transfer moved 1 wei, so
  // the recipient's balance tells that all succeeded; the last receipt is checked too.
  const received = (await balance()) - balanceBefore
  if (received !== BigInt(raws.length)) throw new Error(`${node.name}: ${raws.length} transfers of 1 wei fired, the recipient got ${received}`)
  const last = await rpc(node.httpUrl, 'eth_getTransactionReceipt', [hashes.at(-1)])
  if (last?.status !== '0x1') throw new Error(`${node.name}: the last fired transfer has no status-1 receipt`)
  const blocks = Number(await rpc(node.httpUrl, 'eth_blockNumber')) - blockBefore
  return { transactions: raws.length, inFlight, seconds, sentSeconds, tps: raws.length / seconds, blocks }
}

/**
 * The section: for each in-flight count, `count` transfers on every node in turn.
 * Returns `{ 'fire ×N': { inFlight, [node name]: result } }`.
 */
export async function fireSection(nodes, { count, inFlights = [32, 1], rpc, log }) {
  const out = {}
  let nonce = 0
  for (const inFlight of inFlights) {
    const raws = signTransfers(nonce, count)
    const row = (out[`fire ×${inFlight}`] = { inFlight })
    for (const node of nodes) {
      log(`fire: ${count} transfers ×${inFlight} on ${node.name}…`)
      try {
        row[node.name] = await fire(node, raws, nonce, inFlight, rpc)
      } catch (e) {
        // One server failing a run (e.g. not including every transfer in time) is a finding to
        // print in its cell, not a reason to lose the rest of the benchmark.
        row[node.name] = { error: e.message }
        log(`fire: ${e.message}`)
      }
    }
    nonce += count
  }
  return out
}
