// The fork section of bench/run.mjs: a forked test flow, what a test suite against a fork of a live
// chain does, on `ringchain serve --fork-url` and on `anvil --fork-url`, both forking the same local
// upstream (a `ringchain serve` holding an ERC-20 and its holders' balances) through a counting
// proxy of their own. Per test: deploy a contract that reads the forked token's balances, call it,
// transact with it and with the token, check, revert. Reported: ms per test and upstream requests
// (JSON-RPC calls, batches counted per call) per test, the first test (cold: state fetched) apart
// from the later ones (warm). The targets take turns, one test each.
//
//   node bench/run.mjs --only fork           (or: node bench/fork.mjs [--quick])

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { http } from 'viem'
import { KEYS, Token, viemClients } from './suite-flows.mjs'
import { readyLine, stopProcess, waitForRpc } from './processes.mjs'
import { freePort, installedFile, ringchainCommand, runAsScript } from './startup.mjs'

const HOLDERS = Array.from({ length: 16 }, (_, i) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}`)
const SUPPLY = 10n ** 24n
const SHARE = 10n ** 18n

/** Reads a token's balances (eth_call and a transaction), the contract each test deploys. */
const READER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IERC20 { function balanceOf(address) external view returns (uint256); }
contract Reader {
  uint256 public total;
  function sum(address token, address[] calldata holders) public view returns (uint256 s) {
    for (uint256 i = 0; i < holders.length; i++) s += IERC20(token).balanceOf(holders[i]);
  }
  function record(address token, address[] calldata holders) external { total = sum(token, holders); }
}`

/** Reader's ABI and bytecode, compiled with solc-js from the bench's peer cache. */
async function compileReader() {
  const found = installedFile('solc@0.8.37', 'solc', 'index.js')
  if (found.path === undefined) throw new Error(found.reason)
  const solc = (await import(pathToFileURL(found.path).href)).default
  const input = { language: 'Solidity', sources: { 'Reader.sol': { content: READER } }, settings: { evmVersion: 'paris', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const c = output.contracts['Reader.sol'].Reader
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
}

// --- processes -------------------------------------------------------------------------------------

/** `ringchain serve` (extra flags after the usual ones); resolves with its URLs once it is ready. */
async function startRingchain(extra = []) {
  const child = spawn(ringchainCommand.command, [...ringchainCommand.args, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const info = await readyLine(child, 'ringchain serve', (code) => `ringchain serve exited with ${code}: ${stderr.trim().split('\n').slice(-2).join(' ')}`)
  return { child, ...info }
}

/** anvil forking `url`, its RPC cache off so that every run fetches what it needs. */
async function startAnvil(binary, url, cachePath) {
  const port = await freePort()
  const child = spawn(binary, ['--port', String(port), '--silent', '--fork-url', url, '--no-storage-caching', '--cache-path', cachePath], { stdio: 'ignore' })
  const httpUrl = `http://127.0.0.1:${port}`
  await waitForRpc(httpUrl, child, 'anvil')
  return { child, httpUrl }
}

/** An HTTP proxy in front of `target` that counts the JSON-RPC calls going through it, by method. */
async function countingProxy(target) {
  const counts = { calls: 0, requests: 0, methods: {} }
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', async () => {
      counts.requests++
      try {
        const parsed = JSON.parse(body)
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          counts.calls++
          counts.methods[call.method] = (counts.methods[call.method] ?? 0) + 1
        }
      } catch {
        // not JSON: forwarded as it is, the upstream answers the error
      }
      try {
        const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        res.writeHead(answer.status, { 'content-type': 'application/json' })
        res.end(await answer.text())
      } catch (e) {
        res.writeHead(502)
        res.end(String(e))
      }
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}/v3/bench-key`, counts, close: () => new Promise((resolve) => server.close(resolve)) }
}

// --- the upstream and the flow ---------------------------------------------------------------------

/** The upstream's token: deployed by dev account 0, a share sent to each holder. */
async function seedUpstream(httpUrl) {
  const c = viemClients(http(httpUrl))
  const wallet = c.wallets[0]
  const deployed = await c.public.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Forked', 'FRK', SUPPLY] }) })
  const token = deployed.contractAddress
  for (const holder of HOLDERS) await c.public.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [holder, SHARE] }) })
  return token
}

function check(ok, what) {
  if (!ok) throw new Error(`forked flow check failed: ${what}`)
}

/** One test of a suite that forks: snapshot, deploy the reader, read, transact, check, revert. */
async function forkedTest(c, reader, token) {
  const { public: client, test, wallets } = c
  const wallet = wallets[1]
  const snapshot = await test.snapshot()
  const deployed = await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: reader.abi, bytecode: reader.bytecode }) })
  const address = deployed.contractAddress
  const sum = await client.readContract({ address, abi: reader.abi, functionName: 'sum', args: [token, HOLDERS] })
  check(sum === SHARE * BigInt(HOLDERS.length), `sum of the forked balances: ${sum}`)
  const recorded = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi: reader.abi, functionName: 'record', args: [token, HOLDERS] }) })
  check(recorded.status === 'success', 'record mined')
  const moved = await client.waitForTransactionReceipt({ hash: await wallets[0].writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [HOLDERS[0], 1n] }) })
  check(moved.status === 'success', 'token transfer mined')
  check((await client.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [HOLDERS[0]] })) === SHARE + 1n, 'balance after the transfer')
  check((await client.readContract({ address, abi: reader.abi, functionName: 'total' })) === SHARE * BigInt(HOLDERS.length), 'recorded total')
  await test.revert({ id: snapshot })
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? undefined : s[Math.floor(s.length / 2)]
}

/**
 * Runs the section. `anvilBinary` undefined leaves anvil out. Resolves with one entry per target:
 * the first test's ms and upstream calls, the later tests' medians, the calls made while starting.
 */
export async function forkSection({ quick = false, anvilBinary, log = () => {} } = {}) {
  const tests = quick ? 5 : 15
  const reader = await compileReader()
  const upstream = await startRingchain()
  const anvilCache = mkdtempSync(join(tmpdir(), 'ringchain-bench-fork-anvil-'))
  const targets = []
  try {
    log('fork: seeding the upstream (an ERC-20 and 16 holders)…')
    const token = await seedUpstream(upstream.httpUrl)
    const kinds = [
      { name: 'ringchain --fork-url', start: (url) => startRingchain(['--fork-url', url]) },
      ...(anvilBinary === undefined ? [] : [{ name: 'anvil --fork-url', start: (url) => startAnvil(anvilBinary, url, anvilCache) }]),
    ]
    for (const kind of kinds) {
      const proxy = await countingProxy(upstream.httpUrl)
      const target = { name: kind.name, proxy, times: [], calls: [] }
      targets.push(target)
      try {
        const node = await kind.start(proxy.url)
        target.child = node.child
        target.clients = viemClients(http(node.httpUrl))
        await target.clients.public.getBlockNumber()
        target.startCalls = proxy.counts.calls
      } catch (e) {
        target.error = e.message
      }
    }
    log(`fork: ${tests} tests per target, taking turns…`)
    for (let i = 0; i < tests; i++) {
      for (const target of targets) {
        if (target.error !== undefined) continue
        const before = target.proxy.counts.calls
        const started = performance.now()
        try {
          await forkedTest(target.clients, reader, token)
        } catch (e) {
          target.error = e.shortMessage ?? e.message
          continue
        }
        target.times.push(performance.now() - started)
        target.calls.push(target.proxy.counts.calls - before)
      }
    }
    return {
      tests,
      targets: targets.map((t) => ({
        name: t.name,
        ...(t.error === undefined ? {} : { error: t.error }),
        startCalls: t.startCalls,
        firstMs: t.times[0],
        firstCalls: t.calls[0],
        laterMs: median(t.times.slice(1)),
        laterCalls: median(t.calls.slice(1)),
        times: t.times,
        calls: t.calls,
        methods: t.proxy.counts.methods,
      })),
    }
  } finally {
    for (const t of targets) {
      await stopProcess(t.child)
      await t.proxy.close()
    }
    await stopProcess(upstream.child)
    rmSync(anvilCache, { recursive: true, force: true })
  }
}

/** The section's markdown table: ringchain's column, anvil's, and the ratio. */
export function forkTable(section) {
  const [rc, anvil] = ['ringchain --fork-url', 'anvil --fork-url'].map((name) => section.targets.find((t) => t.name === name))
  const fmt = (x, digits = 0) => (x === undefined ? '–' : x.toFixed(digits))
  // A target that failed says why in the first row, in its column, and shows dashes below.
  const cell = (t, key, digits, first) => (t === undefined ? 'not measured' : t.error !== undefined ? (first ? `failed: ${t.error.split('\n')[0].slice(0, 100)}` : '–') : fmt(t[key], digits))
  const ratio = (key) => (rc?.[key] === undefined || anvil?.[key] === undefined || anvil[key] === 0 ? '' : (rc[key] / anvil[key]).toFixed(2))
  const rows = [
    ['first test (cold), ms', 'firstMs', 1],
    [`later tests, median of ${section.tests - 1}, ms`, 'laterMs', 1],
    ['upstream calls while starting', 'startCalls', 0],
    ['upstream calls, first test', 'firstCalls', 0],
    ['upstream calls per later test (median)', 'laterCalls', 0],
  ]
  return [
    '| forked test flow (deploy a reader of a forked ERC-20, call, transact, revert) | ringchain --fork-url | anvil --fork-url | ringchain/anvil |',
    '|---|---:|---:|---:|',
    ...rows.map(([label, key, digits], i) => `| ${label} | ${cell(rc, key, digits, i === 0)} | ${cell(anvil, key, digits, i === 0)} | ${ratio(key)} |`),
  ].join('\n')
}

// Run as a script: the section alone.
const alone = await runAsScript(import.meta.url, forkSection, forkTable)
if (alone !== undefined) {
  for (const t of alone.targets) console.error(`${t.name}: upstream calls by method ${JSON.stringify(t.methods)}`)
}
