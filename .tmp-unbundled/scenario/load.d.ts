/** The JSON Schema of scenario files, shipped with the package (editors autocomplete from it). */
export declare const SCENARIO_SCHEMA_PATH: string;
/** One step as written: its kind's key and the common keys (`as`, `title`, `expect`). */
export type StepDocument = Readonly<Record<string, unknown>>;
/** A scenario as written, after validation. */
export interface ScenarioDocument {
    readonly name?: string;
    readonly description?: string;
    readonly chain?: Readonly<Record<string, unknown>>;
    readonly digest?: string;
    readonly steps: readonly StepDocument[];
}
/** Where something is in the file (1-based). */
export interface Position {
    readonly line: number;
    readonly column: number;
}
/** A problem found before any step ran. */
export interface ScenarioProblem {
    readonly message: string;
    /** The field, as `steps[2].send.value`; empty for the whole file. */
    readonly path: string;
    readonly line?: number;
    readonly column?: number;
}
/** A scenario file that cannot be played: every problem found, with its line. */
export declare class ScenarioFileError extends Error {
    readonly file: string | undefined;
    readonly problems: readonly ScenarioProblem[];
    name: string;
    constructor(file: string | undefined, problems: readonly ScenarioProblem[]);
}
/** A parsed, valid scenario with the positions of its fields. */
export interface LoadedScenario {
    readonly file: string | undefined;
    /** Where artifact paths are read from: the file's folder. */
    readonly baseDir: string;
    readonly document: ScenarioDocument;
    /** The position of the field at `path` (or of the nearest enclosing field written). */
    locate(path: readonly (string | number)[]): Position | undefined;
}
/** The step kinds, in the order the documentation lists them. */
export declare const STEP_KINDS: readonly ["accounts", "deploy", "send", "call", "mine", "mining", "time", "snapshot", "revert", "wait", "rpc"];
export type StepKind = (typeof STEP_KINDS)[number] | 'expect';
/** The things an `expect` step can check. */
export declare const EXPECT_SUBJECTS: readonly ["receipt", "transaction", "storage", "balance", "nonce", "code", "block", "pool"];
/** Which kind a step is: its action key, else `expect`; undefined when it has none of them. */
export declare function stepKind(step: unknown): StepKind | undefined;
/** Reads, parses and validates a scenario file; throws `ScenarioFileError` with every problem. */
export declare function loadScenario(file: string): Promise<LoadedScenario>;
/** Parses and validates scenario text (YAML or JSON); `file` names it in messages. */
export declare function parseScenario(text: string, file?: string): LoadedScenario;
/**
 * Validates a scenario given as a value (from code): the same checks as a file, without lines.
 * Throws `ScenarioFileError`.
 */
export declare function checkScenario(value: unknown, baseDir?: string): LoadedScenario;
/** `steps[2].send.value` */
export declare function formatPath(path: readonly (string | number)[]): string;
