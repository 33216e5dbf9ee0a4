/**
 * One transaction: its fields, then (once included) its receipt, its logs decoded where an event is
 * known, the call tree with the revert reason (`debug_traceTransaction`, callTracer) and the storage
 * it changed (`ringchain_storageDiff`).
 */
import { useApp, useHeadTick, useLoad } from '../data/app.js'
import { ether, gwei, quantity } from '../data/hex.js'
import { AddressLink, BlockLink } from '../components/Link.js'
import { Failed, Fields } from '../components/Fields.js'
import { LogList, type WireLog } from '../components/LogList.js'
import { CallTree, type WireFrame } from '../components/CallTree.js'
import { StorageChanges } from '../components/StorageChanges.js'
import type { Diff } from '../../inspect/client.js'

interface WireTx {
  readonly hash: string
  readonly from: string
  readonly to: string | null
  readonly nonce: string
  readonly value: string
  readonly gas: string
  readonly type: string
  readonly input: string
  readonly blockNumber: string | null
  readonly maxFeePerGas?: string
  readonly gasPrice?: string
}
interface WireReceipt {
  readonly status: string
  readonly gasUsed: string
  readonly effectiveGasPrice: string
  readonly contractAddress: string | null
  readonly logs: readonly WireLog[]
}
interface TxDetails {
  readonly tx: WireTx | null
  readonly receipt: WireReceipt | null
  readonly trace: WireFrame | Error
  readonly changes: Diff | Error
}

export function TxView({ hash }: { hash: string }) {
  const { rpc, ring, storage } = useApp()
  // A pending transaction gets its receipt when a block includes it: look again on new blocks.
  const tick = useHeadTick(ring, 500)
  const loaded = useLoad(async (): Promise<TxDetails> => {
    const [tx, receipt] = (await rpc.batch([
      ['eth_getTransactionByHash', [hash]],
      ['eth_getTransactionReceipt', [hash]],
    ])) as [WireTx | null, WireReceipt | null]
    if (receipt === null || receipt instanceof Error) return { tx, receipt: null, trace: new Error('not included yet'), changes: new Error('not included yet') }
    const [trace, changes] = await Promise.all([
      rpc.call<WireFrame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch((e: unknown) => e as Error),
      storage.diff(hash).catch((e: unknown) => e as Error),
    ])
    return { tx, receipt, trace, changes }
  }, [rpc, hash, tick])
  if (loaded.state === 'loading') return <main>loading transaction…</main>
  if (loaded.state === 'failed') return <Failed error={loaded.error} />
  const { tx, receipt, trace, changes } = loaded.value
  if (tx === null || tx instanceof Error) {
    return (
      <main>
        <h1>Transaction</h1>
        <p class="error">
          <code>{hash}</code> is unknown: never sent, dropped, or its block has left the window.
        </p>
      </main>
    )
  }
  const status = receipt === null ? 'pending' : quantity(receipt.status) === 1n ? 'success' : 'reverted'
  return (
    <main>
      <h1>
        Transaction <span class={`status ${status}`} data-testid="tx-status">{status}</span>
      </h1>
      <Fields
        rows={[
          ['hash', <code>{tx.hash}</code>],
          ['block', tx.blockNumber === null ? 'pending (in the pool)' : <BlockLink number={quantity(tx.blockNumber)} />],
          ['from', <AddressLink address={tx.from} full />],
          ['to', tx.to === null ? <>contract creation: <AddressLink address={receipt?.contractAddress} full /></> : <AddressLink address={tx.to} full />],
          ['value', `${ether(quantity(tx.value))} ETH`],
          ['nonce', quantity(tx.nonce).toString()],
          ['type', quantity(tx.type).toString()],
          ['gas limit', quantity(tx.gas).toString()],
          ...(receipt === null
            ? []
            : ([
                ['gas used', quantity(receipt.gasUsed).toString()],
                ['gas price', `${gwei(quantity(receipt.effectiveGasPrice))} gwei`],
              ] as const)),
          ['input', <code class="data">{tx.input.length > 202 ? `${tx.input.slice(0, 202)}… (${(tx.input.length - 2) / 2} bytes)` : tx.input}</code>],
        ]}
      />
      {receipt !== null && (
        <>
          <h2>Logs ({receipt.logs.length})</h2>
          <LogList logs={receipt.logs} />
          <h2>Calls</h2>
          {trace instanceof Error ? <Failed error={`no trace: ${trace.message}`} /> : <CallTree frame={trace} />}
          <h2>Storage changed</h2>
          {changes instanceof Error ? <Failed error={changes.message} /> : <StorageChanges changes={changes.changes} />}
        </>
      )}
    </main>
  )
}
