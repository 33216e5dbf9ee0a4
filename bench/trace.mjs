// Tracing cost: debug_traceTransaction of a ~200k-gas transaction (a keccak loop, ~32k opcodes)
// with callTracer and with the struct logger, against executing the same call (eth_call), on
// ringchain and on anvil. Medians of alternating runs; ratios are what to read on a busy machine.
// Usage: node bench/trace.mjs [--runs 15]   (needs `npm run build`; anvil is installed on demand)
import { spawn } from 'node:child_process'
import { findAnvil, ringchainCommand } from './startup.mjs'

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 15)
// PUSH2 2300; loop: MSTORE(0,i); KECCAK256(0,32); i -= 1; JUMPI(loop, i); STOP
const RUNTIME = '6108fc5b8060005260206000205060019003806003570000'
const INIT = `0x60${(RUNTIME.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${RUNTIME}`

async function rpc(url, method, params = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = await res.json()
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
  return body.result
}

function start(command, args, ready) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] })
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${command} did not start`)), 60_000)
    child.stdout.on('data', (chunk) => {
      out += chunk
      const url = ready(out)
      if (url) {
        clearTimeout(timer)
        resolve({ child, url })
      }
    })
  })
}

async function prepare(url) {
  const [from] = await rpc(url, 'eth_accounts')
  const deploy = await rpc(url, 'eth_sendTransaction', [{ from, data: INIT, gas: '0x100000' }])
  const { contractAddress } = await rpc(url, 'eth_getTransactionReceipt', [deploy])
  const hash = await rpc(url, 'eth_sendTransaction', [{ from, to: contractAddress, gas: '0x60000' }])
  const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash])
  return { from, to: contractAddress, hash, gasUsed: BigInt(receipt.gasUsed) }
}

async function time(fn) {
  const t = performance.now()
  await fn()
  return performance.now() - t
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function measure(label, url) {
  const tx = await prepare(url)
  const cases = {
    'eth_call (execute)': () => rpc(url, 'eth_call', [{ from: tx.from, to: tx.to, gas: '0x60000' }, 'latest']),
    callTracer: () => rpc(url, 'debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }]),
    'struct logger': () => rpc(url, 'debug_traceTransaction', [tx.hash, {}]),
  }
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]))
  for (const fn of Object.values(cases)) await fn() // warm up
  for (let i = 0; i < runs; i++) for (const [k, fn] of Object.entries(cases)) times[k].push(await time(fn))
  const base = median(times['eth_call (execute)'])
  console.log(`${label}: transaction of ${tx.gasUsed} gas, median of ${runs}`)
  for (const [k, xs] of Object.entries(times)) console.log(`  ${k.padEnd(20)} ${median(xs).toFixed(1).padStart(8)} ms  ${(median(xs) / base).toFixed(2)}x`)
}

const rc = await start(ringchainCommand.command, ringchainCommand.args, (out) => /"httpUrl":"([^"]+)"/.exec(out)?.[1])
try {
  await measure('ringchain', rc.url)
} finally {
  rc.child.kill()
}
const anvil = findAnvil()
if (anvil.binary === undefined) console.log(`anvil: not measured (${anvil.reason})`)
else {
  const node = await start(anvil.binary, ['--port', '0'], (out) => {
    const m = /Listening on ([\d.]+:\d+)/.exec(out)
    return m && `http://${m[1]}`
  })
  try {
    await measure('anvil', node.url)
  } finally {
    node.child.kill()
  }
}
