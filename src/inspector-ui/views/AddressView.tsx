/**
 * An account at any block of the window: balance, nonce, code size; for a contract, its storage
 * (by variable name with a layout, by slot and derivation path without), the storage changes of
 * each block of the window that touched it, and where to paste its ABI and layout.
 */
import { useState } from 'preact/hooks'
import { useApp, useHeadTick, useLoad } from '../data/app.js'
import { byteLength, ether, quantity, toQuantity } from '../data/hex.js'
import { useWatched } from '../data/store.js'
import { Failed, Fields } from '../components/Fields.js'
import { StorageVariables } from '../components/StorageVariables.js'
import { StorageHistory } from '../components/StorageHistory.js'
import { ContractForm } from '../components/ContractForm.js'

export function AddressView({ address }: { address: string }) {
  const { rpc, ring } = useApp()
  useWatched(ring)
  const tick = useHeadTick(ring, 1000)
  /** undefined: follow the head. */
  const [chosen, setChosen] = useState<bigint | undefined>(undefined)
  const head = ring.marks?.head ?? ring.rows[0]?.number
  const edge = ring.marks?.edge ?? 0n
  const block = chosen ?? head
  const account = useLoad(async () => {
    if (block === undefined) return undefined
    const tag = toQuantity(block)
    const [balance, nonce, code] = (await rpc.batch([
      ['eth_getBalance', [address, tag]],
      ['eth_getTransactionCount', [address, tag]],
      ['eth_getCode', [address, tag]],
    ])) as [string, string, string]
    return { balance: quantity(balance), nonce: quantity(nonce), codeSize: byteLength(code) }
  }, [rpc, address, block])
  return (
    <main>
      <h1>
        Address <code>{address}</code>
      </h1>
      <BlockPicker block={block} head={head} edge={edge} following={chosen === undefined} onChoose={setChosen} />
      {account.state === 'failed' && <Failed error={account.error} />}
      {account.state === 'done' && account.value !== undefined && (
        <Fields
          rows={[
            ['balance', `${ether(account.value.balance)} ETH`],
            ['nonce', account.value.nonce.toString()],
            ['code', account.value.codeSize === 0 ? 'none (an externally owned account)' : `${account.value.codeSize} bytes`],
          ]}
        />
      )}
      {block !== undefined && account.state === 'done' && account.value !== undefined && account.value.codeSize > 0 && (
        <>
          <h2>Storage at block {block.toString()}</h2>
          <StorageVariables address={address} block={block} />
          <h2>Storage changes in the window</h2>
          <StorageHistory address={address} edge={edge} head={tick < 0n ? (head ?? 0n) : tick} onChoose={setChosen} />
          <h2>ABI and storage layout</h2>
          <ContractForm address={address} />
        </>
      )}
    </main>
  )
}

function BlockPicker(props: { block: bigint | undefined; head: bigint | undefined; edge: bigint; following: boolean; onChoose: (b: bigint | undefined) => void }) {
  const { block, head, edge, following, onChoose } = props
  if (block === undefined || head === undefined) return null
  return (
    <p class="picker">
      at block{' '}
      <input
        data-testid="block-picker"
        type="range"
        min={edge.toString()}
        max={head.toString()}
        value={block.toString()}
        onInput={(e) => onChoose(BigInt(e.currentTarget.value))}
      />{' '}
      <strong data-testid="shown-block">{block.toString()}</strong>{' '}
      {following ? <span class="muted">(following the head)</span> : <button onClick={() => onChoose(undefined)}>follow the head</button>}
    </p>
  )
}
