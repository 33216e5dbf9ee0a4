// The bin's shell lines (scripts/bundle-cli.mjs): run as a program, `ringchain serve` starts Node
// with NODE_EXTRA_CA_CERTS moved aside, puts it back for the processes it starts, and still trusts
// its certificates for a TLS fork upstream (src/upstream/trust.ts). The upstream here is a ringchain
// process behind an HTTPS / WSS front whose certificate is signed by a CA made for the test with
// openssl (node:crypto makes keys, not X.509 certificates).

import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rootCertificates } from 'node:tls'
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { rpc, runBin, runCli, serveJson, type ReadyLine } from './helpers.js'

const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' })
const noOpenssl = openssl.status === 0 ? undefined : `openssl is not on the PATH (${openssl.error?.message ?? openssl.stderr}): no certificate authority can be made`
if (noOpenssl !== undefined) console.log(`skipping the TLS upstream tests: ${noOpenssl}`)

const shells = ['dash', 'bash'].filter((shell) => spawnSync(shell, ['-c', 'exit 0']).status === 0)

const dir = mkdtempSync(join(tmpdir(), 'ringchain-ca-'))
const caFile = join(dir, 'ca.pem')
/** The environment without the machine's NODE_EXTRA_CA_CERTS, plus `extra`. */
const envWith = (extra: Record<string, string>) => {
  const { NODE_EXTRA_CA_CERTS: _, RINGCHAIN_EXTRA_CA_CERTS: __, ...rest } = process.env
  return { ...rest, ...extra }
}

/** A CA and a certificate it signs for 127.0.0.1, in `dir`; returns the server's key and certificate. */
function makeCertificates(): { key: string; cert: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=ringchain test CA')
  run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1')
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n')
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext')
  return { key: readFileSync(join(dir, 'server.key'), 'utf8'), cert: readFileSync(join(dir, 'server.pem'), 'utf8') }
}

/** Forwards each HTTPS POST body and each WSS message to `target` over plain HTTP; counts them. */
function tlsFront(target: string, tls: { key: string; cert: string }): Promise<{ server: Server; port: number; forwarded: () => number }> {
  let forwarded = 0
  const forward = async (body: string) => {
    forwarded++
    const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) })
    return response.text()
  }
  const server = createServer(tls, (req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      forward(body).then(
        (text) => res.writeHead(200, { 'content-type': 'application/json' }).end(text),
        () => res.writeHead(502).end(),
      )
    })
  })
  new WebSocketServer({ server }).on('connection', (ws) => ws.on('message', (data) => void forward(data.toString()).then((text) => ws.send(text), () => ws.terminate())))
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, forwarded: () => forwarded })))
}

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.skipIf(noOpenssl !== undefined)('a TLS fork upstream signed by the NODE_EXTRA_CA_CERTS authority', () => {
  const BALANCE_OF = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
  let tls: { key: string; cert: string }
  beforeAll(() => {
    tls = makeCertificates()
  })

  /** A ringchain upstream (served through Node, no TLS of its own) behind a TLS front. */
  const tlsUpstream = async () => {
    const { ready: upstream } = await serveJson(['--deterministic', '--chain-id', '4242'])
    const front = await tlsFront(upstream.httpUrl, tls)
    onTestFinished(() => void front.server.close())
    return { upstream, front }
  }

  const forkedRead = async (protocol: 'https' | 'wss', run: typeof runCli) => {
    const { upstream, front } = await tlsUpstream()
    const url = `${protocol}://127.0.0.1:${front.port}/`
    const { ready } = await serveJson(['--fork-url', url], { env: envWith({ NODE_EXTRA_CA_CERTS: caFile }) }, run)
    expect(ready.chainId).toBe(4242)
    const balance = await rpc(ready.httpUrl, 'eth_getBalance', [BALANCE_OF, 'latest'])
    expect(balance.result).toBe((await rpc(upstream.httpUrl, 'eth_getBalance', [BALANCE_OF, 'latest'])).result)
    expect(front.forwarded()).toBeGreaterThan(0)
  }

  test('behavior: the bin forks https:// through it', { timeout: 30_000 }, async () => {
    await forkedRead('https', runBin)
  })

  test('behavior: the bin forks wss:// through it', { timeout: 30_000 }, async () => {
    await forkedRead('wss', runBin)
  })

  test('behavior: `node dist/cli/main.js` (Node loads the certificates itself) forks https:// through it', { timeout: 30_000 }, async () => {
    await forkedRead('https', runCli)
  })

  test('error: without the variable the same upstream is refused as unverifiable', { timeout: 60_000 }, async () => {
    const { front } = await tlsUpstream()
    const cli = runBin(['serve', '--port', '0', '--json', '--fork-url', `https://127.0.0.1:${front.port}/`], { env: envWith({}) })
    expect(await cli.exit(50_000)).not.toBe(0)
    expect(cli.stderr()).toMatch(/unreachable \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)/)
  })
})

// A certificates file that needs no openssl: three of Node's own roots.
const rootsFile = join(dir, 'roots.pem')
writeFileSync(rootsFile, rootCertificates.slice(0, 3).join('\n') + '\n')
// Prints, at exit, the two variables as the running JavaScript sees them (loaded with NODE_OPTIONS).
const printEnv = join(dir, 'print-env.cjs')
writeFileSync(printEnv, `process.on('exit', () => require('node:fs').writeSync(2, 'env ' + JSON.stringify([process.env.NODE_EXTRA_CA_CERTS, process.env.RINGCHAIN_EXTRA_CA_CERTS]) + '\\n'))\n`)

describe('the bin with NODE_EXTRA_CA_CERTS set', () => {
  const seenEnv = (stderr: string) => JSON.parse(/^env (.*)$/m.exec(stderr)?.[1] ?? 'null') as unknown

  const starts = [{ by: 'its #! line', shell: undefined }, ...shells.map((shell) => ({ by: shell, shell }))]
  test.each(starts)('behavior: `serve` started by $by answers, and its JavaScript sees the variable back', { timeout: 30_000 }, async ({ shell }) => {
    const env = envWith({ NODE_EXTRA_CA_CERTS: rootsFile, NODE_OPTIONS: `--require ${printEnv}` })
    const { cli, ready } = await serveJson([], { env }, (args, options) => runBin(args, options, shell))
    expect((await rpc(ready.httpUrl, 'eth_chainId')).result).toBe('0x7a69')
    cli.child.kill('SIGTERM')
    await cli.exit()
    // Put back for the processes it starts; the name it travelled under is gone.
    expect(seenEnv(cli.stderr())).toEqual([rootsFile, null])
  })

  test('behavior: other commands, and `node dist/cli/main.js`, leave the variable as it was', async () => {
    const env = envWith({ NODE_EXTRA_CA_CERTS: rootsFile, NODE_OPTIONS: `--require ${printEnv}` })
    const bin = runBin(['--help'], { env })
    const node = runCli(['--help'], { env })
    expect(await bin.exit()).toBe(0)
    expect(await node.exit()).toBe(0)
    expect(bin.stdout()).toContain('Usage: ringchain <command>')
    expect(bin.stdout()).toBe(node.stdout())
    expect(seenEnv(bin.stderr())).toEqual([rootsFile, null])
    expect(seenEnv(node.stderr())).toEqual([rootsFile, null])
  })
})
