// `ringchain slot` and `ringchain storage` as a user runs them, against a ringchain on port 0 with
// the ERC-20 fixture deployed: the subcommands run in-process (stdout, stderr and exit captured),
// and once through the real command in a child process.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test, vi } from 'vitest'
import { slot } from '../../src/cli/slot.js'
import { storage } from '../../src/cli/storage.js'
import { freePort } from '../cli/helpers.js'
import { start } from '../helpers/rpc.js'
import { ALICE, BOB, Token, clients, deployToken, write } from './helpers.js'

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))
const TOKEN = fileURLToPath(new URL('../../scenarios/contracts/Token.json', import.meta.url))

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

/** Runs `ringchain <command> <args>` in-process; resolves with its exit code and output. */
async function ringchain(command: 'slot' | 'storage', ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Exit(Number(code ?? 0))
  })
  let code = 0
  try {
    await (command === 'slot' ? slot : storage)(args)
  } catch (e) {
    if (!(e instanceof Exit)) throw e
    code = e.code
  } finally {
    out.mockRestore()
    err.mockRestore()
    exit.mockRestore()
  }
  return { code, stdout, stderr }
}

test('behavior: the real command, in a child process', async () => {
  const out = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', MAIN, 'slot', '--mapping', '0', '--key', ALICE], { timeout: 20_000 }, (error, stdout) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout })
    })
  })
  expect(out).toEqual({ code: 0, stdout: '0x14e04a66bf74771820a7400ff6cf065175b3d7eb25805a5bd1633b161af5d101\n' })
})

async function setup(options: Parameters<typeof start>[0] = {}) {
  const rc = await start(options)
  const c = clients(rc, rc.accounts[0]!.privateKey)
  const { address, transfer } = await deployToken(c)
  return { rc, address, transfer, rpc: ['--rpc', rc.httpUrl] }
}

describe('slot', () => {
  test('default: a mapping entry', async () => {
    const out = await ringchain('slot', '--mapping', '0', '--key', ALICE)
    expect(out).toEqual({ code: 0, stdout: '0x14e04a66bf74771820a7400ff6cf065175b3d7eb25805a5bd1633b161af5d101\n', stderr: '' })
  })

  test('args: nested keys, typed keys, an array element, an ERC-7201 namespace', async () => {
    expect((await ringchain('slot', '--mapping', '1', '--key', ALICE, '--key', BOB)).stdout).toMatchInlineSnapshot(`
      "0x6df786368f06500623c8df3be9d70af4a36e2ef8086e4791f76d82edf4c5a06b
      "
    `)
    expect((await ringchain('slot', '--mapping', '24', '--key', 'alice', '--key-type', 'string')).stdout).toMatchInlineSnapshot(`
      "0x889dfe2d45cedd256902ed47e32e66b21284b59f3af6a21616901028e42e7c0b
      "
    `)
    expect((await ringchain('slot', '--array', '15', '--index', '5', '--element-bytes', '8')).stdout).toMatchInlineSnapshot(`
      "0x8d1108e10bcb7c27dddfc02ed9d693a074039d026cf4ea4240b40f7d581ac803
      packed  8 bytes at offset 8
      "
    `)
    expect((await ringchain('slot', '--erc7201', 'openzeppelin.storage.ERC20')).stdout).toBe('0x52c63247e1f47db19d5ce0460030c497f067ca4cebf71ba98eeadabe20bace00\n')
  })

  test('args: --layout with a nested path', async () => {
    const out = await ringchain('slot', '--layout', TOKEN, `_allowances[${ALICE}][${BOB}]`)
    expect(out.stdout).toMatchInlineSnapshot(`
      "0x6df786368f06500623c8df3be9d70af4a36e2ef8086e4791f76d82edf4c5a06b
      path    _allowances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8][0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC]
      type    uint256
      "
    `)
  })

  test('error: bad key, no mode', async () => {
    expect(await ringchain('slot', '--mapping', '1', '--key', '0xabc', '--key-type', 'bytes4')).toMatchObject({ code: 2, stderr: 'ringchain: --key 0xabc: the key is bytes4: 4 bytes of hex (0x + 8 digits)\n' })
    expect(await ringchain('slot', '--mapping', 'x', '--key', '1')).toMatchObject({ code: 2, stderr: 'ringchain: --mapping: "x" is not a slot (a decimal number or 0x hex of at most 32 bytes)\n' })
    expect((await ringchain('slot')).code).toBe(2)
  })
})

describe('storage', () => {
  test('default: a slot, its word and its value', async () => {
    const { address, rpc } = await setup()
    expect((await ringchain('storage', address, '2', ...rpc)).stdout).toMatchInlineSnapshot(`
      "0x5FbDB2315678afecb367f032d93F642f64180aa3 at block 2
      slot  0x0000000000000000000000000000000000000000000000000000000000000002
      word  0x00000000000000000000000000000000000000000000d3c21bcecceda1000000
      uint  1000000000000000000000000
      "
    `)
  })

  test('args: a variable by name, every variable, every slot, a diff', async () => {
    const { address, transfer, rpc } = await setup()
    expect((await ringchain('storage', address, `_balances[${ALICE}]`, '--layout', TOKEN, ...rpc)).stdout).toMatchInlineSnapshot(`
      "0x5FbDB2315678afecb367f032d93F642f64180aa3 at block 2
      _balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]  uint256
      slot  0x14e04a66bf74771820a7400ff6cf065175b3d7eb25805a5bd1633b161af5d101
      word  0x0000000000000000000000000000000000000000000000004563918244f40000
      value = 5000000000000000000
      "
    `)
    expect((await ringchain('storage', address, '--layout', TOKEN, ...rpc)).stdout).toMatchInlineSnapshot(`
      "0x5FbDB2315678afecb367f032d93F642f64180aa3 at block 2
      _balances     mapping(address => uint256)                      slot 0     (2 entries seen)
        [0x70997970C51812dc3A010C7d01b50e0d17dc79C8] = 5000000000000000000
        [0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266] = 999995000000000000000000
      _allowances   mapping(address => mapping(address => uint256))  slot 1     (no entries seen)
      _totalSupply  uint256                                          slot 2   = 1000000000000000000000000
      _name         string                                           slot 3   = "Ringchain Token"
      _symbol       string                                           slot 4   = "RING"
      "
    `)
    expect((await ringchain('storage', address, '--all', '--layout', TOKEN, ...rpc)).stdout).toMatchInlineSnapshot(`
      "0x5FbDB2315678afecb367f032d93F642f64180aa3 at block 2: 5 non-zero slots
      0x0000000000000000000000000000000000000000000000000000000000000002  0x00000000000000000000000000000000000000000000d3c21bcecceda1000000
          _totalSupply = 1000000000000000000000000
      0x0000000000000000000000000000000000000000000000000000000000000003  0x52696e67636861696e20546f6b656e000000000000000000000000000000001e
          _name = "Ringchain Token"
      0x0000000000000000000000000000000000000000000000000000000000000004  0x52494e4700000000000000000000000000000000000000000000000000000008
          _symbol = "RING"
      0x14e04a66bf74771820a7400ff6cf065175b3d7eb25805a5bd1633b161af5d101  0x0000000000000000000000000000000000000000000000004563918244f40000
          _balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8] = 5000000000000000000
      0x723077b8a1b173adc35e5f0e7e3662fd1208212cb629f9c128551ea7168da722  0x00000000000000000000000000000000000000000000d3c1d66b3b6b5c0c0000
          _balances[0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266] = 999995000000000000000000
      "
    `)
    expect((await ringchain('storage', '--diff', transfer, address, '--layout', TOKEN, ...rpc)).stdout.replace(transfer, '<transfer>')).toMatchInlineSnapshot(`
      "transaction <transfer> in block 2
      0x5FbDB2315678afecb367f032d93F642f64180aa3
        0x14e04a66bf74771820a7400ff6cf065175b3d7eb25805a5bd1633b161af5d101
          _balances[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]: 0 → 5000000000000000000
        0x723077b8a1b173adc35e5f0e7e3662fd1208212cb629f9c128551ea7168da722
          _balances[0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266]: 1000000000000000000000000 → 999995000000000000000000
      "
    `)
  })

  test('args: --block reads an older block of the window', async () => {
    const { address, rpc } = await setup()
    const out = await ringchain('storage', address, `_balances[${ALICE}]`, '--layout', TOKEN, '--block', '1', ...rpc)
    expect(out.stdout).toContain('value = 0\n')
  })

  test('error: bad address, slot, path, block; a block outside the window; no node', async () => {
    const { rc, address, rpc } = await setup({ window: 4 })
    await rc.chain.mine(5n)
    const closed = await freePort()
    const errors: string[] = []
    for (const args of [
      ['0x1234', '0', ...rpc],
      [address, '0x' + '1'.repeat(65), ...rpc],
      [address, '_balances[nobody]', '--layout', TOKEN, ...rpc],
      [address, 'balances', ...rpc],
      [address, '0', '--block', 'yesterday', ...rpc],
      [address, '0', '--block', '99', ...rpc],
      [address, '0', '--block', '1', ...rpc],
      ['--diff', '1', ...rpc],
      ['--diff', '99', ...rpc],
      [address, '0', '--rpc', `http://127.0.0.1:${closed}/v3/x`],
    ]) {
      const out = await ringchain('storage', ...args)
      errors.push(`${out.code} ${out.stderr.trim()}`.replace(`:${closed}/`, ':<port>/'))
    }
    expect(errors).toMatchInlineSnapshot(`
      [
        "2 ringchain: invalid address "0x1234": want 0x and 40 hex digits",
        "2 ringchain: slot: "0x11111111111111111111111111111111111111111111111111111111111111111" is not a slot (a decimal number or 0x hex of at most 32 bytes)",
        "2 ringchain: _balances[nobody]: the key is address: 20 bytes of hex (0x + 40 digits)",
        "2 ringchain: "balances" is not a slot number; reading a variable by name needs --layout <file>",
        "2 ringchain: invalid block "yesterday": want latest, earliest, safe, finalized or a block number",
        "2 ringchain: block 99 is not mined yet (the head is 7)",
        "2 ringchain: pruned history unavailable: block 1 is outside the served window 4..7",
        "2 ringchain: pruned history unavailable: block 1 is outside the served window 4..7",
        "2 ringchain: block 99 is not mined yet (the head is 7)",
        "2 ringchain: cannot reach http://127.0.0.1:<port>/v3/x: ECONNREFUSED (is \`ringchain serve\` running? --rpc <url> names another node)",
      ]
    `)
  })
})
