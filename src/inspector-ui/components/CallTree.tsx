/** The call tree of geth's callTracer, nested; a failed frame shows its error and revert reason. */
import { ether, quantity } from '../data/hex.js'
import { AddressLink } from './Link.js'

export interface WireFrame {
  readonly type: string
  readonly from: string
  readonly to?: string
  readonly value?: string
  readonly gasUsed: string
  readonly input: string
  readonly error?: string
  readonly revertReason?: string
  readonly calls?: readonly WireFrame[]
}

export function CallTree({ frame }: { frame: WireFrame }) {
  return (
    <ul class="calls" data-testid="calls">
      <Frame frame={frame} />
    </ul>
  )
}

function Frame({ frame }: { frame: WireFrame }) {
  const value = quantity(frame.value)
  return (
    <li class={frame.error === undefined ? '' : 'failed'}>
      <span class="call-type">{frame.type}</span> <AddressLink address={frame.to} /> <code>{frame.input.slice(0, 10)}</code>
      {value > 0n && <span> {ether(value)} ETH</span>} <span class="muted">gas {quantity(frame.gasUsed).toString()}</span>
      {frame.error !== undefined && (
        <span class="error" data-testid="revert">
          {' '}
          {frame.error}
          {frame.revertReason !== undefined && `: ${frame.revertReason}`}
        </span>
      )}
      {frame.calls !== undefined && frame.calls.length > 0 && (
        <ul>
          {frame.calls.map((c, i) => (
            <Frame key={i} frame={c} />
          ))}
        </ul>
      )}
    </li>
  )
}
