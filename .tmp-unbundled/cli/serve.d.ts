/** `ringchain serve [options]`. */
export declare function serve(rest: string[]): Promise<void>;
