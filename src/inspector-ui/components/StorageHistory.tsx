/**
 * The blocks of the window that changed one contract's storage, newest first, each with its
 * changes named (`ringchain_storageDiff(block, address)` per block, sent as one batch).
 */
import type { Diff } from '../../inspect/client.js'
import { useApp, useLoad } from '../data/app.js'
import { ChangeTable, useNamer } from './StorageChanges.js'
import { Failed } from './Fields.js'

export function StorageHistory(props: { address: string; edge: bigint; head: bigint; onChoose: (block: bigint) => void }) {
  const { address, edge, head, onChoose } = props
  const { storage } = useApp()
  const name = useNamer()
  const loaded = useLoad(async () => {
    const numbers: bigint[] = []
    for (let n = head; n >= edge && n >= 0n; n--) numbers.push(n)
    const diffs = await Promise.all(numbers.map((n) => storage.diff(n, address).catch(() => undefined)))
    return diffs.filter((d): d is Diff => d !== undefined && d.changes.length > 0)
  }, [storage, address, edge, head])
  if (loaded.state === 'loading') return <p class="muted">reading the window…</p>
  if (loaded.state === 'failed') return <Failed error={loaded.error} />
  if (loaded.value.length === 0) return <p class="muted">no block of the window changed its storage</p>
  return (
    <ol class="history" data-testid="history">
      {loaded.value.map((d) => (
        <li key={d.blockHash} data-block={d.blockNumber.toString()}>
          <button class="link" onClick={() => onChoose(d.blockNumber)}>
            block {d.blockNumber.toString()}
          </button>
          <ChangeTable changes={d.changes.map(name)} />
        </li>
      ))}
    </ol>
  )
}
