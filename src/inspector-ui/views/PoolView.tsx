/**
 * The pool (`txpool_content`): per sender, the executable transactions (pending) and those waiting
 * behind a nonce gap (queued), in nonce order from the sender's next nonce, with each gap shown
 * as the nonces missing.
 */
import { useApp, useHeadTick, useLoad } from '../data/app.js'
import { quantity } from '../data/hex.js'
import { AddressLink, TxLink } from '../components/Link.js'
import { Failed } from '../components/Fields.js'

interface PoolTx {
  readonly hash: string
  readonly nonce: string
  readonly to: string | null
  readonly gas: string
}
type Section = Record<string, Record<string, PoolTx>>

interface SenderPool {
  readonly sender: string
  /** The sender's nonce at the head: the next executable one. */
  readonly next: bigint
  readonly entries: readonly ({ kind: 'tx'; state: 'pending' | 'queued'; tx: PoolTx; nonce: bigint } | { kind: 'gap'; from: bigint; to: bigint })[]
}

export function PoolView() {
  const { rpc, ring } = useApp()
  const tick = useHeadTick(ring, 500)
  const loaded = useLoad(async () => {
    const content = await rpc.call<{ pending: Section; queued: Section }>('txpool_content')
    const senders = [...new Set([...Object.keys(content.pending), ...Object.keys(content.queued)])].sort()
    const nonces = (await rpc.batch(senders.map((s) => ['eth_getTransactionCount', [s, 'latest']] as const))) as string[]
    return senders.map((sender, i) => senderPool(sender, quantity(nonces[i]), content.pending[sender] ?? {}, content.queued[sender] ?? {}))
  }, [rpc, tick])
  return (
    <main>
      <h1>The pool</h1>
      {loaded.state === 'failed' && <Failed error={loaded.error} />}
      {loaded.state === 'done' && loaded.value.length === 0 && <p class="muted">The pool is empty: every transaction sent is in a block.</p>}
      {loaded.state === 'done' &&
        loaded.value.map((p) => (
          <section key={p.sender} class="sender" data-sender={p.sender.toLowerCase()}>
            <h2>
              <AddressLink address={p.sender} full /> <span class="muted">next nonce {p.next.toString()}</span>
            </h2>
            <table class="pool">
              <tbody>
                {p.entries.map((e) =>
                  e.kind === 'gap' ? (
                    <tr key={`gap${e.from}`} class="gap" data-testid="gap">
                      <td>{e.from === e.to ? e.from.toString() : `${e.from}–${e.to}`}</td>
                      <td colSpan={3}>nonce gap: {e.from === e.to ? 'this nonce is' : 'these nonces are'} missing, later transactions wait (queued)</td>
                    </tr>
                  ) : (
                    <tr key={e.tx.hash} class={e.state} data-testid={e.state}>
                      <td>{e.nonce.toString()}</td>
                      <td>
                        <span class={`state ${e.state}`}>{e.state}</span>
                      </td>
                      <td>
                        <TxLink hash={e.tx.hash} />
                      </td>
                      <td>
                        to <AddressLink address={e.tx.to} />
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </section>
        ))}
    </main>
  )
}

function senderPool(sender: string, next: bigint, pending: Record<string, PoolTx>, queued: Record<string, PoolTx>): SenderPool {
  const all = [
    ...Object.values(pending).map((tx) => ({ kind: 'tx' as const, state: 'pending' as const, tx, nonce: quantity(tx.nonce) })),
    ...Object.values(queued).map((tx) => ({ kind: 'tx' as const, state: 'queued' as const, tx, nonce: quantity(tx.nonce) })),
  ].sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
  const entries: SenderPool['entries'][number][] = []
  let expected = next
  for (const e of all) {
    if (e.nonce > expected) entries.push({ kind: 'gap', from: expected, to: e.nonce - 1n })
    entries.push(e)
    expected = e.nonce + 1n
  }
  return { sender, next, entries }
}
