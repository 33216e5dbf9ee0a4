/**
 * A contract's storage at one block: every variable of its layout, decoded (mapping entries for the
 * keys the chain has seen), or, without a layout, every non-zero slot with its derivation path.
 * The reading is src/inspect/'s, over the page's JSON-RPC.
 */
import { cachedReader, readAll, renderValue, type VariableValue } from '../../inspect/read.js'
import { hexWord, toBigInt } from '../../inspect/slots.js'
import { useApp, useLoad } from '../data/app.js'
import { useWatched } from '../data/store.js'
import { Failed } from './Fields.js'

export function StorageVariables({ address, block }: { address: string; block: bigint }) {
  const { storage, contracts } = useApp()
  useWatched(contracts)
  const layout = contracts.layout(address)
  const loaded = useLoad(async () => {
    const slots = await storage.slots(address, block)
    if (layout === undefined) return { kind: 'slots' as const, slots }
    const knownKeys = layout.knownKeys(slots.flatMap((s) => (s.derivation === undefined ? [] : [s.derivation])))
    const variables = await readAll(layout, cachedReader(storage.reader(address, block)), { knownKeys, maxElements: 16 })
    return { kind: 'variables' as const, variables }
  }, [storage, address, block, layout])
  if (loaded.state === 'loading') return <p class="muted">reading storage…</p>
  if (loaded.state === 'failed') return <Failed error={loaded.error} />
  const value = loaded.value
  if (value.kind === 'variables') return <VariableTable variables={value.variables} />
  if (value.slots.length === 0) return <p class="muted">no non-zero slot</p>
  return (
    <>
      <p class="muted">No layout for this contract: slots are named by how they were derived. Paste its artifact below to see variable names.</p>
      <table class="slots">
        <tbody>
          {value.slots.map((s) => (
            <tr key={s.slot.toString()}>
              <td><code title={hexWord(s.slot)}>{s.path ?? hexWord(s.slot)}</code></td>
              <td class="num">{toBigInt(s.value).toString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

function VariableTable({ variables }: { variables: readonly VariableValue[] }) {
  return (
    <table class="variables" data-testid="variables">
      <tbody>
        {variables.map((v) => {
          const lines: string[] = []
          renderValue(v.value, '', '  ', lines)
          const scalar = lines.length === 1 && lines[0]!.startsWith(' = ')
          return (
            <tr key={v.name} data-var={v.name}>
              <td><code>{v.name}</code></td>
              <td class="muted">{v.type}</td>
              <td data-testid="value">{scalar ? lines[0]!.slice(3) : <pre>{lines.join('\n').trim()}</pre>}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
