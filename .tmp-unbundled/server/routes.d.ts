export declare const HTTP_PREFIX = "/v3";
export declare const WS_PREFIX = "/ws/v3";
/** The path is under the prefix but carries no key (`/v3`, `/v3/`): answered 403. */
export declare const KEY_MISSING: unique symbol;
/** The path is not one we serve: answered 404. */
export declare const NOT_OURS: unique symbol;
/** An API key (non-empty, percent-decoded), or why there is none. */
export type PathMatch = string | typeof KEY_MISSING | typeof NOT_OURS;
/**
 * Reads the API key from a request target under `prefix`.
 * @example matchKeyPath('/v3/abc/?x=1', '/v3') // 'abc'
 */
export declare function matchKeyPath(url: string, prefix: string): PathMatch;
