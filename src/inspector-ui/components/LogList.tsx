/** A receipt's logs, each decoded when its event is known (from a pasted ABI, or well-known), raw otherwise. */
import { useApp } from '../data/app.js'
import { decodeLog } from '../data/events.js'
import { useWatched } from '../data/store.js'
import { AddressLink } from './Link.js'

export interface WireLog {
  readonly address: string
  readonly topics: readonly string[]
  readonly data: string
  readonly logIndex: string
}

export function LogList({ logs }: { logs: readonly WireLog[] }) {
  const { contracts } = useApp()
  useWatched(contracts)
  if (logs.length === 0) return <p class="muted">none</p>
  return (
    <ol class="logs" data-testid="logs">
      {logs.map((log) => {
        const decoded = decodeLog(log, contracts.events(log.address))
        return (
          <li key={log.logIndex}>
            <AddressLink address={log.address} />{' '}
            {decoded === undefined ? (
              <span class="muted">unknown event (no ABI for this contract: paste one on its address page)</span>
            ) : (
              <>
                <strong data-testid="event-name">{decoded.name}</strong>(
                {decoded.args.map((a, i) => (
                  <span key={a.name}>
                    {i > 0 && ', '}
                    <span class="muted">{a.name}</span> {a.value}
                  </span>
                ))}
                ) <span class="muted">{decoded.source === 'abi' ? 'from the ABI' : 'well-known event'}</span>
              </>
            )}
            <details>
              <summary>raw</summary>
              {log.topics.map((t, i) => (
                <div key={i}><code>topic {i}: {t}</code></div>
              ))}
              <div><code class="data">data: {log.data}</code></div>
            </details>
          </li>
        )
      })}
    </ol>
  )
}
