/**
 * The system contracts a proof-of-stake chain has from genesis (EIP-4788, EIP-2935, EIP-7002,
 * EIP-7251), with the runtime code the EIPs specify. Geth puts them in its dev genesis too; without
 * them Prague blocks cannot be built (the request contracts are called at the end of every block).
 */
export interface SystemContract {
    readonly address: string;
    readonly eip: number;
    /** The first fork that needs it. */
    readonly fork: 'cancun' | 'prague';
    readonly code: string;
}
export declare const SYSTEM_CONTRACTS: readonly SystemContract[];
