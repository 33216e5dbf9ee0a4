/**
 * What every step kind shares: the context a step runs with, the shape of a step kind's entry in
 * the dispatch table, and the error a step throws when it fails for a reason other than an
 * expectation. A leaf: the step modules and `run.ts` import it; it imports only types.
 */
import type { Client } from '../client.js'
import type { StepDocument } from '../load.js'
import type { Checker } from '../match.js'
import type { Scope } from '../scope.js'
import type { ChainFacts } from '../transactions.js'
import { show } from '../values.js'

/** What a step runs with. */
export interface StepContext {
  readonly client: Client
  readonly scope: Scope
  readonly facts: ChainFacts
  /** Where artifact and ABI paths are read from. */
  readonly baseDir: string
  /** Snapshot ids by the names the scenario gave them. */
  readonly snapshots: Map<string, string>
  /** Reports how a long step is getting on (a terminal shows it). */
  progress(detail: string): void
}

/** A place in the scenario document (`['steps', 3, 'expect', 'logs', 0]`). */
export type Path = readonly (string | number)[]
/** A step's value or an expectation, as written (after `resolve` where the step resolves it). */
export type Spec = Readonly<Record<string, unknown>>

/** One step kind: what it does and how a report names it. */
export interface StepHandler {
  /** Runs the step; its expectations' mismatches land in `checker`. `path` is the step's place in the document. */
  run(ctx: StepContext, step: StepDocument, path: Path, checker: Checker): Promise<void>
  /** One line saying what the step does; `spec` is the step's value (`step[kind]`, `{}` when absent). */
  describe(spec: Spec, step: StepDocument): string
}

/** A step kind's module exports its entries in this shape; `dispatch.ts` spreads them into one table. */
export type StepTable = Readonly<Record<string, StepHandler>>

/** A step that failed for a reason other than an expectation (an RPC error nobody expected, a bad value). */
export class StepError extends Error {
  override name = 'StepError'
  constructor(
    message: string,
    /** The field the error is about, for its line. */
    readonly path?: Path,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** A value as a description shows it: text as written, anything else as `show` renders it. */
export function label(value: unknown): string {
  return typeof value === 'string' ? value : show(value)
}

/** `Token.transfer(alice, 100)`-style arguments of a described call, from the step's `args`. */
export function argsLabel(args: unknown): string {
  return (Array.isArray(args) ? args : args === undefined ? [] : [args]).map(label).join(', ')
}
