/**
 * Before the suite: anvil, which several tests compare ringchain with, installed once into the
 * cache outside this project's dependencies (test files run in parallel and would race to install
 * it). When it cannot be had, the reason is printed here and those tests skip, saying so.
 */
import { findFoundryTool } from './foundry.js'

export default function setup(): void {
  const anvil = findFoundryTool('anvil')
  if ('reason' in anvil) console.warn(`anvil is not available, the tests that compare with it will skip: ${anvil.reason}`)
}
