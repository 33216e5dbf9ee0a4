/**
 * The system contracts a proof-of-stake chain has from genesis (EIP-4788, EIP-2935, EIP-7002,
 * EIP-7251), with the runtime code the EIPs specify. Geth puts them in its dev genesis too; without
 * them Prague blocks cannot be built (the request contracts are called at the end of every block).
 */
import { equalsBytes } from '@ethereumjs/util'
import { keyOf } from './encoding.js'

export interface SystemContract {
  readonly address: string
  readonly eip: number
  /** The first fork that needs it. */
  readonly fork: 'cancun' | 'prague'
  readonly code: string
}

export const SYSTEM_CONTRACTS: readonly SystemContract[] = [
  {
    address: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
    eip: 4788,
    fork: 'cancun',
    code: '0x3373fffffffffffffffffffffffffffffffffffffffe14604d57602036146024575f5ffd5b5f35801560495762001fff810690815414603c575f5ffd5b62001fff01545f5260205ff35b5f5ffd5b62001fff42064281555f359062001fff015500',
  },
  {
    address: '0x0000f90827f1c53a10cb7a02335b175320002935',
    eip: 2935,
    fork: 'prague',
    code: '0x3373fffffffffffffffffffffffffffffffffffffffe14604657602036036042575f35600143038111604257611fff81430311604257611fff9006545f5260205ff35b5f5ffd5b5f35611fff60014303065500',
  },
  {
    address: '0x00000961ef480eb55e80d19ad83579a64c007002',
    eip: 7002,
    fork: 'prague',
    code: '0x3373fffffffffffffffffffffffffffffffffffffffe1460cb5760115f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff146101f457600182026001905f5b5f82111560685781019083028483029004916001019190604d565b909390049250505036603814608857366101f457346101f4575f5260205ff35b34106101f457600154600101600155600354806003026004013381556001015f35815560010160203590553360601b5f5260385f601437604c5fa0600101600355005b6003546002548082038060101160df575060105b5f5b8181146101835782810160030260040181604c02815460601b8152601401816001015481526020019060020154807fffffffffffffffffffffffffffffffff00000000000000000000000000000000168252906010019060401c908160381c81600701538160301c81600601538160281c81600501538160201c81600401538160181c81600301538160101c81600201538160081c81600101535360010160e1565b910180921461019557906002556101a0565b90505f6002555f6003555b5f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff14156101cd57505f5b6001546002828201116101e25750505f6101e8565b01600290035b5f555f600155604c025ff35b5f5ffd',
  },
  {
    address: '0x0000bbddc7ce488642fb579f8b00f3a590007251',
    eip: 7251,
    fork: 'prague',
    code: '0x3373fffffffffffffffffffffffffffffffffffffffe1460d35760115f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff1461019a57600182026001905f5b5f82111560685781019083028483029004916001019190604d565b9093900492505050366060146088573661019a573461019a575f5260205ff35b341061019a57600154600101600155600354806004026004013381556001015f358155600101602035815560010160403590553360601b5f5260605f60143760745fa0600101600355005b6003546002548082038060021160e7575060025b5f5b8181146101295782810160040260040181607402815460601b815260140181600101548152602001816002015481526020019060030154905260010160e9565b910180921461013b5790600255610146565b90505f6002555f6003555b5f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff141561017357505f5b6001546001828201116101885750505f61018e565b01600190035b5f555f6001556074025ff35b5f5ffd',
  },
]

/** The caller of every end-of-block system call (EIP-4788, EIP-7002, EIP-7251). */
const SYSTEM_ADDRESS = 'fffffffffffffffffffffffffffffffffffffffe'

/** The request queues' storage: excess (0), count (1), head (2), tail (3). */
const QUEUE_SLOTS = [0, 1, 2, 3].map((n) => n.toString(16).padStart(64, '0'))

/** What the request-queue system calls read, as the mining state manager answers it. */
export interface QueueState {
  accountRecord(address: string): { readonly codeHash: Uint8Array } | undefined
  storageValue(address: string, slot: string): Uint8Array
  /** On a forked chain, fetches what is not held yet (see `StateReader.load`). */
  load(address: string, slot?: string): Promise<void> | undefined
}

/** The part of ethereumjs's EVM the shortcut wraps. */
interface CallingEvm {
  runCall(opts: RunCallShape): Promise<unknown>
}

interface RunCallShape {
  readonly message?: unknown
  readonly caller?: { readonly bytes: Uint8Array }
  readonly to?: { readonly bytes: Uint8Array }
  readonly origin?: unknown
  readonly block?: unknown
  readonly value?: bigint
  readonly data?: Uint8Array
}

/**
 * Answers the end-of-block system calls to the EIP-7002 and EIP-7251 request contracts without
 * running them while their queues are empty.
 *
 * Why: ethereumjs runs both contracts in the EVM at the end of every Prague block, which was most
 * of the interpreter time of mining a transfer. With the four queue slots at zero the contracts'
 * system path dequeues nothing, returns no requests and writes zeros over zeros (EIPs' pseudocode
 * and bytecode alike), so the answer is known without running them. Only that exact case is
 * answered: the standard code at the address, the system address calling with no value, data,
 * origin or block (a transaction never looks like that), every slot zero (a fresh contract's
 * inhibitor excess is not); anything else runs as before.
 */
export function answerIdleRequestCalls(evm: CallingEvm, state: QueueState, keccak: (data: Uint8Array) => Uint8Array): void {
  const idle = idleQueueCheck(state, keccak)
  const run = evm.runCall.bind(evm)
  evm.runCall = (opts) => {
    if (opts.message !== undefined || opts.origin !== undefined || opts.block !== undefined || (opts.value ?? 0n) !== 0n || (opts.data?.length ?? 0) !== 0) return run(opts)
    if (opts.caller === undefined || opts.to === undefined || keyOf(opts.caller.bytes) !== SYSTEM_ADDRESS) return run(opts)
    if (idle(keyOf(opts.to.bytes)) !== 'idle') return run(opts)
    return Promise.resolve({ execResult: { returnValue: new Uint8Array(0), executionGasUsed: 0n, gasRefund: 0n, logs: [] } })
  }
}

/**
 * Whether no request can come out of the end-of-block system calls to the EIP-7002 and EIP-7251
 * contracts: each is absent (ethereumjs calls nothing then) or idle as `answerIdleRequestCalls`
 * answers it. Then both return no requests and leave the state as it was.
 */
export function requestQueuesIdle(state: QueueState, keccak: (data: Uint8Array) => Uint8Array): () => boolean {
  const idle = idleQueueCheck(state, keccak)
  return () => {
    for (const address of REQUEST_ADDRESSES) if (idle(address) === 'busy') return false
    return true
  }
}

/** The EIP-7002 and EIP-7251 request contracts, and their addresses (unprefixed). */
const REQUEST_CONTRACTS = SYSTEM_CONTRACTS.filter((c) => c.eip === 7002 || c.eip === 7251)
const REQUEST_ADDRESSES = REQUEST_CONTRACTS.map((c) => c.address.slice(2))

/** Per keccak (one per chain): the request contracts' standard code hashes by address, hashed once. */
const standardCodeHashes = new WeakMap<(data: Uint8Array) => Uint8Array, Map<string, Uint8Array>>()
function standardCodeHashesOf(keccak: (data: Uint8Array) => Uint8Array): Map<string, Uint8Array> {
  let hashes = standardCodeHashes.get(keccak)
  if (hashes === undefined) {
    hashes = new Map(REQUEST_CONTRACTS.map((c) => [c.address.slice(2), keccak(Buffer.from(c.code.slice(2), 'hex'))]))
    standardCodeHashes.set(keccak, hashes)
  }
  return hashes
}

/**
 * Per address: 'idle' for a request contract with its standard code and every queue slot zero,
 * 'absent' for no account there, 'busy' otherwise (another address, other code, a queue in use,
 * or a forked chain's state not fetched yet).
 */
function idleQueueCheck(state: QueueState, keccak: (data: Uint8Array) => Uint8Array): (address: string) => 'idle' | 'absent' | 'busy' {
  const standard = standardCodeHashesOf(keccak)
  return (address) => {
    const codeHash = standard.get(address)
    if (codeHash === undefined) return 'busy'
    // A forked chain's contract or queue not fetched yet: the EVM run waits for them.
    if (state.load(address) !== undefined) return 'busy'
    for (const slot of QUEUE_SLOTS) if (state.load(address, slot) !== undefined) return 'busy'
    const record = state.accountRecord(address)
    if (record === undefined) return 'absent'
    if (!equalsBytes(record.codeHash, codeHash)) return 'busy'
    for (const slot of QUEUE_SLOTS) if (state.storageValue(address, slot).length !== 0) return 'busy'
    return 'idle'
  }
}

/** A request system call that failed in the block being imported: geth makes the block invalid. */
export interface FailedRequestCall {
  readonly eip: 7002 | 7251
  readonly reason: string
}

/**
 * Watches the end-of-block system calls to the EIP-7002 and EIP-7251 request contracts and keeps
 * the first failure. Why: ethereumjs 10 takes a reverting request contract's output as the
 * requests (geth: `system call failed to execute`), so an import must look at each call's outcome.
 * `reset` clears what was seen, before the next block.
 */
export function watchRequestCalls(evm: CallingEvm): { failure(): FailedRequestCall | undefined; reset(): void } {
  const watched = new Map<string, 7002 | 7251>()
  for (const contract of SYSTEM_CONTRACTS) if (contract.eip === 7002 || contract.eip === 7251) watched.set(contract.address.slice(2), contract.eip)
  let failed: FailedRequestCall | undefined
  const run = evm.runCall.bind(evm)
  evm.runCall = async (opts) => {
    const result = await run(opts)
    const eip = opts.to === undefined ? undefined : watched.get(keyOf(opts.to.bytes))
    if (eip === undefined || opts.caller === undefined || keyOf(opts.caller.bytes) !== SYSTEM_ADDRESS || opts.message !== undefined) return result
    const error = (result as { execResult?: { exceptionError?: { error: string } } }).execResult?.exceptionError
    if (error !== undefined) failed ??= { eip, reason: error.error }
    return result
  }
  return {
    failure: () => failed,
    reset: () => {
      failed = undefined
    },
  }
}
