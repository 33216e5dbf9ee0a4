/**
 * The step table: every step kind a scenario may use, keyed by its name, assembled from one
 * fragment per kind or tight family. `runStep` and `describeStep` look a step's kind up here.
 *
 * Where a step goes: a new kind is a new module here exporting its `{ kind: { run, describe } }`
 * table, spread in below, with the kind added to `STEP_KINDS` and the schema in `../load.ts`.
 * The order of steps, timing and reports are `../run.ts`'s; signing is `../transactions.ts`'s;
 * comparisons `../match.ts`'s.
 */
import type { StepDocument, StepKind } from '../load.js'
import type { Checker } from '../match.js'
import { accountSteps } from './accounts.js'
import { callSteps } from './call.js'
import type { Path, Spec, StepContext, StepHandler } from './context.js'
import { controlSteps } from './controls.js'
import { expectSteps } from './expect.js'
import { miningSteps } from './mining.js'
import { profileSteps } from './profile.js'
import { reorgSteps } from './reorg.js'
import { rpcSteps } from './rpc.js'
import { transactionSteps } from './transactions.js'
import { waitSteps } from './wait.js'

/** Every step kind's handler; the type holds it to exactly the kinds `load.ts` accepts. */
const STEPS: Readonly<Record<StepKind, StepHandler>> = {
  ...accountSteps,
  ...transactionSteps,
  ...callSteps,
  ...miningSteps,
  ...controlSteps,
  ...reorgSteps,
  ...waitSteps,
  ...rpcSteps,
  ...profileSteps,
  ...expectSteps,
}

/** Runs one step; its expectations' mismatches land in `checker`. `path` is the step's place in the document. */
export function runStep(ctx: StepContext, kind: StepKind, step: StepDocument, path: Path, checker: Checker): Promise<void> {
  return STEPS[kind].run(ctx, step, path, checker)
}

/** One line saying what a step does, from the step as written (names as the author wrote them). */
export function describeStep(kind: StepKind, step: StepDocument): string {
  if (typeof step.title === 'string') return step.title
  return STEPS[kind].describe((step[kind] ?? {}) as Spec, step)
}
