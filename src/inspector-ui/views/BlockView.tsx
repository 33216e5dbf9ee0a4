/** One block of the window: its header fields and its transactions. */
import { useApp, useLoad } from '../data/app.js'
import { gwei, quantity, toQuantity } from '../data/hex.js'
import { AddressLink, BlockLink, TxLink } from '../components/Link.js'
import { Failed, Fields } from '../components/Fields.js'

interface WireBlock {
  readonly number: string
  readonly hash: string
  readonly parentHash: string
  readonly timestamp: string
  readonly gasUsed: string
  readonly gasLimit: string
  readonly baseFeePerGas?: string
  readonly miner: string
  readonly stateRoot: string
  readonly transactions: readonly { hash: string; from: string; to: string | null; nonce: string; value: string }[]
}

export function BlockView({ number }: { number: bigint }) {
  const { rpc } = useApp()
  const loaded = useLoad(() => rpc.call<WireBlock | null>('eth_getBlockByNumber', [toQuantity(number), true]), [rpc, number])
  if (loaded.state === 'loading') return <main>loading block {number.toString()}…</main>
  if (loaded.state === 'failed') return <Failed error={loaded.error} />
  const b = loaded.value
  if (b === null) return <main><h1>Block {number.toString()}</h1><p class="error">Not in the window: not mined yet, or it has left the window.</p></main>
  return (
    <main>
      <h1>
        Block {number.toString()} {number > 0n && <span class="muted">(parent <BlockLink number={number - 1n} />)</span>}
      </h1>
      <Fields
        rows={[
          ['hash', <code>{b.hash}</code>],
          ['timestamp', new Date(Number(quantity(b.timestamp)) * 1000).toISOString()],
          ['gas used', `${quantity(b.gasUsed)} of ${quantity(b.gasLimit)}`],
          ['base fee', `${gwei(quantity(b.baseFeePerGas))} gwei`],
          ['fee recipient', <AddressLink address={b.miner} full />],
          ['state root', <code>{b.stateRoot}</code>],
        ]}
      />
      <h2>{b.transactions.length} transactions</h2>
      <table>
        <tbody>
          {b.transactions.map((t) => (
            <tr key={t.hash}>
              <td><TxLink hash={t.hash} /></td>
              <td>from <AddressLink address={t.from} /></td>
              <td>to <AddressLink address={t.to} /></td>
              <td>nonce {quantity(t.nonce).toString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  )
}
