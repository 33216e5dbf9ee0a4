/**
 * The ring: the window's newest blocks, live, with gas used, base fee and transaction count; the
 * head, safe and finalized blocks marked, and the window's edge (its oldest block) said.
 */
import { Component } from 'preact'
import { useApp } from '../data/app.js'
import { gwei } from '../data/hex.js'
import type { BlockRow, Marks } from '../data/ring.js'
import { useWatched } from '../data/store.js'
import { BlockLink, Link } from '../components/Link.js'
import { Failed } from '../components/Fields.js'

export function RingView() {
  const { ring } = useApp()
  useWatched(ring)
  const marks = ring.marks
  return (
    <main>
      <h1>The ring</h1>
      {ring.error !== undefined && <Failed error={ring.error} />}
      {marks !== undefined && <MarksLine marks={marks} />}
      <table class="ring" data-testid="ring">
        <thead>
          <tr>
            <th>block</th>
            <th>marks</th>
            <th class="num">txs</th>
            <th>gas used</th>
            <th class="num">base fee (gwei)</th>
            <th>hash</th>
          </tr>
        </thead>
        <tbody>
          {ring.rows.map((row) => (
            <BlockRowView key={row.hash} row={row} labels={labelsOf(row.number, marks)} />
          ))}
        </tbody>
      </table>
      {marks !== undefined && marks.edge > 0n && <p class="muted edge">block {(marks.edge - 1n).toString()} and older have left the window</p>}
    </main>
  )
}

function MarksLine({ marks }: { marks: Marks }) {
  return (
    <p class="marks" data-testid="marks">
      head <BlockLink number={marks.head} /> · <span class="mark safe">safe</span> <BlockLink number={marks.safe} /> ·{' '}
      <span class="mark finalized">finalized</span> <BlockLink number={marks.finalized} /> · window edge <BlockLink number={marks.edge} /> (
      {(marks.head - marks.edge + 1n).toString()} blocks)
    </p>
  )
}

/** The marks a block carries, as one string (compared cheaply). */
function labelsOf(n: bigint, marks: Marks | undefined): string {
  if (marks === undefined) return ''
  return [marks.safe === n && 'safe', marks.finalized === n && 'finalized', marks.edge === n && 'edge'].filter(Boolean).join(' ')
}

/**
 * One block's row. A row object is replaced only when its block changes (its transaction count
 * arrives), so a frame with new heads renders the new rows and leaves the other 127 alone.
 */
class BlockRowView extends Component<{ row: BlockRow; labels: string }> {
  override shouldComponentUpdate(next: { row: BlockRow; labels: string }): boolean {
    return next.row !== this.props.row || next.labels !== this.props.labels
  }

  override render() {
    return <BlockRowCells row={this.props.row} labels={this.props.labels} />
  }
}

function BlockRowCells({ row, labels }: { row: BlockRow; labels: string }) {
  const percent = row.gasLimit === 0n ? 0 : Number((row.gasUsed * 10_000n) / row.gasLimit) / 100
  return (
    <tr data-number={row.number.toString()}>
      <td>
        <BlockLink number={row.number} />
      </td>
      <td>
        {labels.split(' ').filter(Boolean).map((label) => (
          <span key={label} class={`mark ${label}`}>
            {label}
          </span>
        ))}
      </td>
      <td class="num" data-testid="tx-count">
        {row.txCount ?? '…'}
      </td>
      <td>
        <span class="gas">
          <span class="bar" style={{ width: `${Math.min(100, percent)}%` }} />
        </span>{' '}
        {row.gasUsed.toString()} ({percent.toFixed(1)}%)
      </td>
      <td class="num">{gwei(row.baseFee)}</td>
      <td>
        <Link to={`/block/${row.number}`} title={row.hash}>
          <code>{row.hash.slice(0, 14)}…</code>
        </Link>
      </td>
    </tr>
  )
}
