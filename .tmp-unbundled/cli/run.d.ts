export declare const RUN_HELP = "Usage: ringchain run <file|dir>... [options]\n\nPlays scenario files (YAML or JSON, see scenarios/README.md), each on a fresh embedded chain,\nand reports every step. A directory stands for the .yaml, .yml and .json files directly in it.\n\nOptions:\n  --rpc <url>   play against a running node (JSON-RPC over HTTP), e.g.\n                http://127.0.0.1:8545/v3/key, instead of a fresh embedded chain\n  --json        print a JSON report on stdout (the summary line goes to stderr)\n  -h, --help    this help\n\nExit code: 0 if every scenario passed, 1 if any failed, 2 for a usage error.\n";
/** Where the command writes; the terminal's, or a test's. */
export interface RunIO {
    readonly stdout: {
        write(text: string): unknown;
        readonly isTTY?: boolean;
    };
    readonly stderr: {
        write(text: string): unknown;
    };
    /** Colors and live progress. Default: stdout is a TTY and NO_COLOR is unset. */
    readonly terminal?: boolean;
}
/** The subcommand, as the dispatcher calls it: sets the exit code. */
export declare function run(args: string[]): Promise<void>;
/** Runs `ringchain run` with `args`; resolves to the exit code. */
export declare function runCommand(args: string[], io: RunIO): Promise<number>;
