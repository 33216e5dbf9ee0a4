// How the transport reports trouble: a quiet default logger (warnings and errors to stderr, nothing
// else) and the one place an unknown thrown value becomes a log line. Details such as stack traces
// go here and only here; the wire only ever gets the generic -32603 (responses.ts).
/** The default logger: warnings and errors on stderr, prefixed so they are findable in test output. */
export const stderrLogger = {
    warn: (message) => console.warn(`ringchain: ${message}`),
    error: (message) => console.error(`ringchain: ${message}`),
};
/** A thrown value as a log line, stack included when there is one. Never throws itself. */
export function describeError(error) {
    try {
        if (error instanceof Error)
            return error.stack ?? `${error.name}: ${error.message}`;
        return String(error);
    }
    catch {
        return 'unprintable thrown value';
    }
}
//# sourceMappingURL=log.js.map