import { type Client } from './client.js';
import type { StepDocument, StepKind } from './load.js';
import { Checker } from './match.js';
import { Scope } from './scope.js';
import { ChainFacts } from './transactions.js';
/** What a step runs with. */
export interface StepContext {
    readonly client: Client;
    readonly scope: Scope;
    readonly facts: ChainFacts;
    /** Where artifact and ABI paths are read from. */
    readonly baseDir: string;
    /** Snapshot ids by the names the scenario gave them. */
    readonly snapshots: Map<string, string>;
    /** Reports how a long step is getting on (a terminal shows it). */
    progress(detail: string): void;
}
type Path = readonly (string | number)[];
/** A step that failed for a reason other than an expectation (an RPC error nobody expected, a bad value). */
export declare class StepError extends Error {
    /** The field the error is about, for its line. */
    readonly path?: Path | undefined;
    name: string;
    constructor(message: string, 
    /** The field the error is about, for its line. */
    path?: Path | undefined, options?: ErrorOptions);
}
/** Runs one step; its expectations' mismatches land in `checker`. `path` is the step's place in the document. */
export declare function runStep(ctx: StepContext, kind: StepKind, step: StepDocument, path: Path, checker: Checker): Promise<void>;
/** One line saying what a step does, from the step as written (names as the author wrote them). */
export declare function describeStep(kind: StepKind, step: StepDocument): string;
export {};
