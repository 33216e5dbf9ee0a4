/**
 * Storage changes (`ringchain_storageDiff`, of a transaction or a block), per account; a slot is
 * named by variable when the account has a layout (contracts.ts), by its derivation path
 * (`1[0xf39f…]`) otherwise.
 */
import type { ChangeEntry } from '../../inspect/client.js'
import { checksumAddress } from '../../inspect/paths.js'
import { decodeWordFields } from '../../inspect/read.js'
import { hexWord, toBigInt } from '../../inspect/slots.js'
import { useApp } from '../data/app.js'
import { useWatched } from '../data/store.js'
import { AddressLink } from './Link.js'

/** A change as lines `name: before → after`. */
export interface NamedChange {
  readonly slot: string
  readonly lines: readonly { readonly name: string; readonly before: string; readonly after: string }[]
}

/** Names one change with the layout of its account, if the page has one. */
export function useNamer(): (c: ChangeEntry) => NamedChange {
  const { contracts } = useApp()
  useWatched(contracts)
  return (c) => {
    const layout = contracts.layout(c.address)
    const fields = layout?.name(c.derivation ?? { root: c.slot, steps: [] })
    if (fields === undefined) {
      return { slot: hexWord(c.slot), lines: [{ name: c.path ?? '(unknown derivation)', before: toBigInt(c.before).toString(), after: toBigInt(c.after).toString() }] }
    }
    const before = decodeWordFields(fields, c.before)
    const after = decodeWordFields(fields, c.after)
    const lines = after.map((a, i) => ({ name: a.path, before: before[i]?.text ?? '', after: a.text })).filter((l) => l.before !== l.after)
    return { slot: hexWord(c.slot), lines }
  }
}

export function StorageChanges({ changes }: { changes: readonly ChangeEntry[] }) {
  const name = useNamer()
  if (changes.length === 0) return <p class="muted">none</p>
  const byAccount = new Map<string, ChangeEntry[]>()
  for (const c of changes) byAccount.set(c.address, [...(byAccount.get(c.address) ?? []), c])
  return (
    <div data-testid="storage-changes">
      {[...byAccount].map(([address, list]) => (
        <section key={address}>
          <h3>
            <AddressLink address={checksumAddress(BigInt(address))} full />
          </h3>
          <ChangeTable changes={list.map(name)} />
        </section>
      ))}
    </div>
  )
}

export function ChangeTable({ changes }: { changes: readonly NamedChange[] }) {
  return (
    <table class="changes">
      <tbody>
        {changes.flatMap((c) =>
          c.lines.map((l, i) => (
            <tr key={`${c.slot}${i}`}>
              <td>
                <code title={c.slot}>{l.name}</code>
              </td>
              <td class="num">{l.before}</td>
              <td>→</td>
              <td class="num" data-testid="after">{l.after}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  )
}
