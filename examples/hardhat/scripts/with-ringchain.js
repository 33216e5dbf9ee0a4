// Runs a command against a fresh `ringchain serve` on a free port: starts the server, waits for
// its ready line, runs the command with RINGCHAIN_URL set, stops the server, exits as the command did.
//   node scripts/with-ringchain.js hardhat test --network ringchain
const { spawn } = require('node:child_process')
const { once } = require('node:events')
const { createInterface } = require('node:readline')

async function main() {
  const [command, ...args] = process.argv.slice(2)
  // `ringchain` is node_modules/.bin/ringchain, on PATH under `npm test`. Its stdin is a pipe:
  // should this script die, the pipe's end stops the server too.
  const server = spawn('ringchain', ['serve', '--port', '0', '--json'], { stdio: ['pipe', 'pipe', 'inherit'] })
  const exited = once(server, 'exit').then(() => {
    throw new Error('ringchain serve exited before it was ready')
  })
  const [line] = await Promise.race([once(createInterface({ input: server.stdout }), 'line'), exited])
  const { httpUrl } = JSON.parse(line)
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, RINGCHAIN_URL: httpUrl } })
  const [code] = await once(child, 'exit')
  server.kill()
  process.exitCode = code ?? 1
}

main().catch((e) => {
  console.error(e.message)
  process.exit(1)
})
