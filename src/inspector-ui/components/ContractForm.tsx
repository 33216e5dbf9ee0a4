/** Where the user pastes a contract's artifact (ABI and storage layout), kept by the browser for this address. */
import { useState } from 'preact/hooks'
import { useApp } from '../data/app.js'
import { parseContractInfo } from '../data/contracts.js'
import { useWatched } from '../data/store.js'

export function ContractForm({ address }: { address: string }) {
  const { contracts } = useApp()
  useWatched(contracts)
  const [text, setText] = useState('')
  const [error, setError] = useState('')
  const known = contracts.get(address)
  return (
    <form
      class="contract-form"
      onSubmit={(e) => {
        e.preventDefault()
        try {
          contracts.set(address, parseContractInfo(text))
          setError('')
          setText('')
        } catch (err) {
          setError((err as Error).message)
        }
      }}
    >
      <p class="muted" data-testid="contract-known">
        {known === undefined
          ? 'Nothing known: paste the compiler artifact (with "abi" and "storageLayout") or a bare storageLayout.'
          : `Known${known.name === undefined ? '' : ` as ${known.name}`}: ${known.events.length} events, ${known.layout === undefined ? 'no storage layout' : `${known.layout.storage.length} state variables`}.`}
      </p>
      <textarea data-testid="artifact" rows={4} value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder='{"abi": [...], "storageLayout": {"storage": [...], "types": {...}}}' />
      <div>
        <button type="submit" data-testid="save-artifact">save</button>{' '}
        {known !== undefined && (
          <button type="button" onClick={() => contracts.set(address, undefined)}>
            forget
          </button>
        )}{' '}
        <span class="error">{error}</span>
      </div>
    </form>
  )
}
