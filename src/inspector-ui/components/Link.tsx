/** Links between views: a real `href` (open in a new tab works) that moves in place on a plain click. */
import type { ComponentChildren } from 'preact'
import { useApp } from '../data/app.js'
import { short } from '../data/hex.js'

export function Link({ to, children, title }: { to: string; children: ComponentChildren; title?: string }) {
  const { router } = useApp()
  return (
    <a
      href={router.href(to)}
      title={title}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
        e.preventDefault()
        router.navigate(to)
      }}
    >
      {children}
    </a>
  )
}

export function BlockLink({ number }: { number: bigint }) {
  return <Link to={`/block/${number}`}>{number.toString()}</Link>
}

export function TxLink({ hash, full = false }: { hash: string; full?: boolean }) {
  return (
    <Link to={`/tx/${hash}`} title={hash}>
      <code>{full ? hash : short(hash)}</code>
    </Link>
  )
}

export function AddressLink({ address, full = false }: { address: string | null | undefined; full?: boolean }) {
  if (address === null || address === undefined) return <span class="muted">none</span>
  return (
    <Link to={`/address/${address.toLowerCase()}`} title={address}>
      <code>{full ? address : short(address)}</code>
    </Link>
  )
}
