/** A usage or input error on the command line: one line on stderr, exit code 2, nothing started. */
export declare function fail(message: string): never;
