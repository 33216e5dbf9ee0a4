import type { Logger } from './types.js';
/** The default logger: warnings and errors on stderr, prefixed so they are findable in test output. */
export declare const stderrLogger: Logger;
/** A thrown value as a log line, stack included when there is one. Never throws itself. */
export declare function describeError(error: unknown): string;
