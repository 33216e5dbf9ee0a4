/** The set of accepted API keys; with none configured, any non-empty key is accepted. */
export declare class ApiKeys {
    #private;
    constructor(keys: readonly string[] | undefined);
    /** True when `key` may use the service. */
    accepts(key: string): boolean;
}
