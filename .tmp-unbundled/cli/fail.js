/** A usage or input error on the command line: one line on stderr, exit code 2, nothing started. */
export function fail(message) {
    process.stderr.write(`ringchain: ${message}\n`);
    process.exit(2);
}
//# sourceMappingURL=fail.js.map