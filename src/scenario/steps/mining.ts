/**
 * The mining steps: `mine:` (a count of blocks, blocks some seconds apart, or until the pool has
 * no executable transaction left) and `mining:` (automine, manual, or an interval). Through
 * `anvil_mine`/`hardhat_mine` where the node has them, else `evm_mine` one block at a time.
 */
import { RpcCallError, requestFirstServed, type Client } from '../client.js'
import { toQuantityHex } from '../values.js'
import { StepError, type Spec, type StepContext, type StepTable } from './context.js'
import { guardedRun } from './expectedErrors.js'

export const miningSteps = {
  mine: {
    run: guardedRun(async (ctx, step) => {
      const head = await mine(ctx, step.mine)
      if (typeof step.as === 'string') ctx.scope.define(step.as, { blockNumber: head })
    }),
    describe: (_, step) => {
      const m = step.mine
      if (typeof m === 'number') return `mine ${m} block${m === 1 ? '' : 's'}`
      const o = m as Spec
      return o.until === 'empty' ? 'mine until the pool is empty' : `mine ${String(o.blocks ?? 1)} block${o.blocks === 1 || o.blocks === undefined ? '' : 's'}${o.interval === undefined ? '' : ` ${String(o.interval)} s apart`}`
    },
  },
  mining: {
    run: guardedRun((ctx, step) => mining(ctx, step.mining)),
    describe: (_, step) => `mining ${typeof step.mining === 'string' ? step.mining : `every ${String((step.mining as Spec).interval)} ms`}`,
  },
} satisfies StepTable

/** Mines as a `mine:` value says; returns the head's number after it. */
async function mine(ctx: StepContext, value: unknown): Promise<string> {
  if (typeof value === 'number') await mineBlocks(ctx, BigInt(value), undefined)
  else {
    const spec = value as Spec
    if (spec.until === 'empty') {
      const max = typeof spec.max === 'number' ? spec.max : 128
      let mined = 0
      while ((await executableCount(ctx.client)) > 0n) {
        if (mined >= max) throw new StepError(`the pool still has executable transactions after ${max} blocks`)
        await mineBlocks(ctx, 1n, spec.interval === undefined ? undefined : BigInt(spec.interval as number))
        mined++
        ctx.progress(`${mined} block${mined === 1 ? '' : 's'}`)
      }
    } else {
      await mineBlocks(ctx, BigInt((spec.blocks as number | undefined) ?? 1), spec.interval === undefined ? undefined : BigInt(spec.interval as number))
    }
  }
  return (await ctx.client.request('eth_blockNumber', [])) as string
}

const MINE_CHUNK = 32n

async function mineBlocks(ctx: StepContext, count: bigint, interval: bigint | undefined): Promise<void> {
  let done = 0n
  while (done < count) {
    const n = count - done > MINE_CHUNK ? MINE_CHUNK : count - done
    const params = interval === undefined ? [toQuantityHex(n)] : [toQuantityHex(n), toQuantityHex(interval)]
    try {
      await requestFirstServed(ctx.client, ['anvil_mine', 'hardhat_mine'], params)
    } catch (e) {
      if (!(e instanceof RpcCallError && e.code === -32601) || interval !== undefined) throw e
      for (let i = 0n; i < n; i++) await ctx.client.request('evm_mine', [])
    }
    done += n
    if (count > MINE_CHUNK) {
      ctx.progress(`block ${done} of ${count}`)
      // An embedded chain mines without ever leaving the microtask queue: let timers run.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

/** Executable transactions in the pool (`txpool_status`, else the pending block). */
async function executableCount(client: Client): Promise<bigint> {
  try {
    const status = (await client.request('txpool_status', [])) as { pending: string }
    return BigInt(status.pending)
  } catch (e) {
    if (!(e instanceof RpcCallError && e.code === -32601)) throw e
    const block = (await client.request('eth_getBlockByNumber', ['pending', false])) as { transactions: unknown[] } | null
    return BigInt(block?.transactions.length ?? 0)
  }
}

async function mining(ctx: StepContext, value: unknown): Promise<void> {
  if (value === 'auto') await ctx.client.request('evm_setAutomine', [true])
  else if (value === 'manual') {
    await ctx.client.request('evm_setAutomine', [false])
    await ctx.client.request('evm_setIntervalMining', [0])
  } else {
    await ctx.client.request('evm_setAutomine', [false])
    await ctx.client.request('evm_setIntervalMining', [(value as { interval: number }).interval])
  }
}
