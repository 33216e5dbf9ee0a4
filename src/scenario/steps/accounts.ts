/**
 * The `accounts:` step: names for dev accounts (by index), addresses and private keys, with an
 * optional balance set through `anvil_setBalance` (or hardhat's).
 */
import { requestFirstServed } from '../client.js'
import type { AccountEntry } from '../scope.js'
import { addressOfKey } from '../transactions.js'
import { parseQuantity, toQuantityHex } from '../values.js'
import type { Spec, StepContext, StepTable } from './context.js'

export const accountSteps = {
  accounts: {
    run: async (ctx, step) => accounts(ctx, (await ctx.scope.resolve(step.accounts)) as Spec),
    describe: (spec) =>
      `accounts ${Object.entries(spec)
        .map(([name, value]) => `${name}=${accountLabel(value)}`)
        .join(' ')}`,
  },
} satisfies StepTable

async function accounts(ctx: StepContext, spec: Spec): Promise<void> {
  for (const [name, value] of Object.entries(spec)) {
    let entry: AccountEntry
    let balance: unknown
    if (typeof value === 'number') entry = ctx.scope.dev(value)
    else if (typeof value === 'string') entry = { kind: 'account', address: ctx.scope.address(value, `accounts.${name}`) }
    else {
      const v = value as Spec
      balance = v.balance
      if (typeof v.privateKey === 'string') entry = { kind: 'account', address: addressOfKey(v.privateKey), privateKey: v.privateKey.toLowerCase() }
      else if (typeof v.index === 'number') entry = ctx.scope.dev(v.index)
      else entry = { kind: 'account', address: ctx.scope.address(v.address, `accounts.${name}`) }
    }
    ctx.scope.define(name, entry)
    if (balance !== undefined) {
      await requestFirstServed(ctx.client, ['anvil_setBalance', 'hardhat_setBalance'], [entry.address, toQuantityHex(parseQuantity(balance, `accounts.${name}.balance`))])
    }
  }
}

function accountLabel(value: unknown): string {
  if (typeof value === 'number') return `#${value}`
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{40}$/.test(value) ? `${value.slice(0, 6)}…${value.slice(-4)}` : value
  const v = value as Spec
  if (typeof v.index === 'number') return `#${v.index}`
  if (typeof v.address === 'string') return `${v.address.slice(0, 6)}…${v.address.slice(-4)}`
  return 'key'
}
