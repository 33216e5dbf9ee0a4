// The README's programmatic examples (the code blocks marked `<!-- example: NAME -->`), run exactly as
// written: their `import ... from 'x'` lines are bound to the modules below ('ringchain' being
// src/index.ts) and the rest runs unchanged, with console.log captured.

import { readFileSync } from 'node:fs'
import * as ethers from 'ethers'
import * as viem from 'viem'
import * as viemAccounts from 'viem/accounts'
import { expect, test } from 'vitest'
import * as ringchain from '../../src/index.js'

const MODULES: Record<string, unknown> = { ringchain, viem, 'viem/accounts': viemAccounts, ethers }

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme)
  if (match === null) throw new Error(`README has no example "${name}"`)
  return match[1]!
}

/** Runs an example; resolves with what it logged. */
async function run(code: string): Promise<unknown[][]> {
  const body = code.replace(/^import \{([^}]*)\} from '([^']+)'$/gm, (_line, names: string, from: string) => {
    if (!(from in MODULES)) throw new Error(`the example imports ${from}, which this test does not provide`)
    return `const {${names.replace(/\bas\b/g, ':')}} = modules[${JSON.stringify(from)}]`
  })
  if (/^import /m.test(body)) throw new Error('an import form this test does not rewrite')
  const logged: unknown[][] = []
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<void>
  await new AsyncFunction('modules', 'console', body)(MODULES, { log: (...args: unknown[]) => logged.push(args) })
  return logged
}

test('default: the in-process viem example runs and prints a successful receipt', async () => {
  const logged = await run(example('in-process'))
  expect(logged).toHaveLength(1)
  expect(logged[0]![0]).toMatchObject({
    status: 'success',
    from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    blockNumber: 1n,
  })
})

test('default: the HTTP and WebSocket ethers example runs and prints the new balance', async () => {
  const logged = await run(example('http'))
  expect(logged).toEqual([[10_000_000_000_000_000_000_001n]])
})
