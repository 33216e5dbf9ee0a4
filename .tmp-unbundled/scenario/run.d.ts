import { type Client, type Eip1193Request } from './client.js';
import { type ScenarioDocument, type ScenarioProblem, type StepKind } from './load.js';
/** Options of `runScenario`. */
export interface RunScenarioOptions {
    /** Play against the node at this JSON-RPC HTTP URL instead of a fresh embedded chain. */
    readonly rpc?: string;
    /** Or against this EIP-1193 `request` (a provider, a running ringchain's `request`). */
    readonly request?: Eip1193Request;
    /** Where artifact paths of a scenario given as a value are read from. Default: the working directory. */
    readonly baseDir?: string;
    /** Called as the scenario plays (a terminal shows progress from it). */
    readonly onEvent?: (event: RunEvent) => void;
}
/** What happens while a scenario plays. */
export type RunEvent = {
    readonly type: 'start';
    readonly file: string | undefined;
    readonly name: string;
    readonly steps: number;
    readonly target: string;
} | {
    readonly type: 'step';
    readonly index: number;
    readonly total: number;
    readonly description: string;
    readonly line: number | undefined;
} | {
    readonly type: 'progress';
    readonly index: number;
    readonly detail: string;
} | {
    readonly type: 'stepEnd';
    readonly step: StepReport;
} | {
    readonly type: 'end';
    readonly report: ScenarioReport;
};
/** An expectation that did not hold, as reports show it (values JSON-safe: bigints as strings). */
export interface MismatchReport {
    readonly field: string;
    readonly expected: unknown;
    readonly actual: unknown;
    /** The line of the expectation in the file. */
    readonly line?: number;
    readonly note?: string;
}
/** One step's outcome. */
export interface StepReport {
    /** 1-based, in file order. */
    readonly index: number;
    readonly kind: StepKind;
    readonly description: string;
    readonly line?: number;
    readonly status: 'passed' | 'failed' | 'skipped';
    readonly durationMs: number;
    readonly mismatches?: readonly MismatchReport[];
    /** Why the step failed when it is not a mismatch (an RPC error nobody expected, a bad value). */
    readonly error?: string;
    /** The line the error is about, when it is not the step's own. */
    readonly errorLine?: number;
}
/** One scenario's outcome. */
export interface ScenarioReport {
    readonly file?: string;
    readonly name: string;
    /** `embedded` (a fresh ringchain) or the URL played against. */
    readonly target: string;
    readonly status: 'passed' | 'failed';
    readonly durationMs: number;
    readonly steps: readonly StepReport[];
    /** The file could not be played: what is wrong with it, with lines. */
    readonly problems?: readonly ScenarioProblem[];
    /** The chain could not be started, or another failure outside the steps. */
    readonly error?: string;
    /** keccak256 of the final head block hash and the pending block's transaction hashes. */
    readonly digest?: string;
    /** The digest the file expects, when it gives one. */
    readonly expectedDigest?: string;
    /** Things worth knowing that are not failures (chain options ignored with --rpc). */
    readonly notes?: readonly string[];
}
/**
 * Plays a scenario: a file path (YAML or JSON), or a scenario as a value. Never throws for the
 * scenario's own failures: they are in the report.
 *
 * @example
 * const report = await runScenario('scenarios/01-transfer.yaml')
 * if (report.status === 'failed') console.log(report.steps.find((s) => s.status === 'failed'))
 */
export declare function runScenario(source: string | ScenarioDocument, options?: RunScenarioOptions): Promise<ScenarioReport>;
/**
 * The digest of a chain as a node answers for it: keccak256 of the head block's hash followed by
 * the hashes of the pending block's transactions. The head hash commits to every block, state and
 * receipt before it; the pending part catches a pool that differs.
 */
export declare function chainDigest(client: Client): Promise<string>;
/** bigints as decimal strings, bytes as hex: what JSON can carry. */
export declare function jsonSafe(value: unknown): unknown;
