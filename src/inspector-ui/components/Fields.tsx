/** A list of labelled values (a transaction's fields, an account's state). */
import type { ComponentChildren } from 'preact'

export function Fields({ rows }: { rows: readonly (readonly [label: string, value: ComponentChildren])[] }) {
  return (
    <dl class="fields">
      {rows.map(([label, value]) => (
        <div key={label} data-field={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A failed load, said plainly. */
export function Failed({ error }: { error: string }) {
  return <p class="error">{error}</p>
}
