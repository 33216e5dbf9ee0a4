/**
 * The chain's controls, through its own RPC methods: mine a block (`evm_mine`), the mining mode
 * (`evm_setAutomine`, `evm_setIntervalMining`), snapshots (`evm_snapshot`, `evm_revert`). After a
 * revert the ring is reloaded: going back mines nothing, so no head announces it.
 */
import { useEffect, useState } from 'preact/hooks'
import { useApp } from '../data/app.js'

type Mode = 'auto' | 'manual' | 'interval'

export function Controls() {
  const { rpc, ring } = useApp()
  const [mode, setMode] = useState<Mode | undefined>(undefined)
  const [intervalMs, setIntervalMs] = useState('1000')
  const [snapshots, setSnapshots] = useState<readonly { id: string; head: string }[]>([])
  const [message, setMessage] = useState('')

  useEffect(() => {
    void rpc.call<boolean>('anvil_getAutomine').then((auto) => setMode((m) => m ?? (auto ? 'auto' : 'manual')))
  }, [rpc])

  const act = (what: string, run: () => Promise<unknown>) => () =>
    void run().then(
      () => setMessage(what),
      (e: unknown) => setMessage(`${what} failed: ${(e as Error).message}`),
    )

  const switchMode = (next: Mode) =>
    act(`mining: ${next}`, async () => {
      if (next === 'interval') await rpc.call('evm_setIntervalMining', [Number(intervalMs)])
      else await rpc.call('evm_setAutomine', [next === 'auto'])
      setMode(next)
    })()

  return (
    <section class="controls" aria-label="controls">
      <button data-testid="mine" onClick={act('mined a block', () => rpc.call('evm_mine'))}>
        mine
      </button>
      <label>
        mining
        <select data-testid="mode" value={mode ?? ''} onChange={(e) => switchMode(e.currentTarget.value as Mode)}>
          <option value="auto">auto</option>
          <option value="manual">manual</option>
          <option value="interval">interval</option>
        </select>
      </label>
      <label>
        every
        <input class="narrow" type="number" min="1" value={intervalMs} onInput={(e) => setIntervalMs(e.currentTarget.value)} /> ms
      </label>
      <button
        data-testid="snapshot"
        onClick={act('snapshot taken', async () => {
          const id = await rpc.call<string>('evm_snapshot')
          setSnapshots((s) => [...s, { id, head: ring.rows[0]?.number.toString() ?? '?' }])
        })}
      >
        snapshot
      </button>
      {snapshots.map((s) => (
        <button
          key={s.id}
          data-testid="revert"
          title={`evm_revert(${s.id})`}
          onClick={act(`reverted to block ${s.head}`, async () => {
            const reverted = await rpc.call<boolean>('evm_revert', [s.id])
            // A revert drops that snapshot and every later one.
            setSnapshots((all) => all.slice(0, all.indexOf(s)))
            if (!reverted) throw new Error('the chain no longer has this snapshot')
            await ring.reload()
          })}
        >
          revert to {s.head}
        </button>
      ))}
      <span class="muted" data-testid="control-message">
        {message}
      </span>
    </section>
  )
}
