// examples/hardhat, as a user runs it: copied out, its dependencies installed, `npm test`, which
// starts `ringchain serve` and runs `hardhat test` (an ethers and a viem test file) against it.
import { expect, onTestFinished, test } from 'vitest'
import { exampleProject, run } from './example-project.js'

test('behavior: hardhat test passes against ringchain serve, with ethers and with viem', { timeout: 360_000 }, async (context) => {
  const project = await exampleProject('hardhat')
  if ('skip' in project) {
    console.warn(`examples/hardhat skipped: ${project.skip}`)
    return context.skip(project.skip)
  }
  onTestFinished(() => project.remove(), 60_000)
  const { stdout } = await run('npm', ['test'], { cwd: project.dir, timeout: 120_000, env: { ...project.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' } })
  expect(stdout).toContain('Counter with ethers')
  expect(stdout).toContain('Counter with viem')
  expect(stdout).toMatch(/\b4 passing\b/)
  expect(stdout).not.toMatch(/\bfailing\b/)
})
