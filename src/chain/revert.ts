/**
 * Revert data explained: `Error(string)`, `Panic(uint256)` with the panic's meaning, and custom
 * errors by name (a built-in list of common ones, plus any the user registers).
 * Owns: decoding revert bytes into a reason. A leaf: imports nothing of ours, so the chain (mined
 * failures, tracers) and the RPC layer (error messages) can both use it.
 * Hook points: `src/rpc/errors.ts` (`ExecutionRevertedError`: eth_call, eth_estimateGas,
 * eth_sendTransaction), `src/chain/trace/callTracer.ts` (`revertReason`), `src/chain/chain.ts`
 * (the log line of a mined transaction that failed), `registerErrorSignatures` for user ABIs.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'

/** A decoded revert: what it was and the words a developer reads. */
export interface RevertExplanation {
  readonly kind: 'error' | 'panic' | 'custom'
  /** geth's text: the string of `Error(string)`, the panic's meaning; for a custom error, its signature with arguments. */
  readonly reason: string
  /** The panic code, for `Panic(uint256)`. */
  readonly panicCode?: bigint
}

const ERROR_SELECTOR = 0x08c379a0 // Error(string)
const PANIC_SELECTOR = 0x4e487b71 // Panic(uint256)

// Solidity's panic codes, worded as geth's accounts/abi does.
const PANIC_REASONS: ReadonlyMap<bigint, string> = new Map([
  [0x00n, 'generic panic'],
  [0x01n, 'assert(false)'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'enum overflow'],
  [0x22n, 'invalid encoded storage byte array accessed'],
  [0x31n, 'out-of-bounds array access; popping on an empty array'],
  [0x32n, 'out-of-bounds access of an array or bytesN'],
  [0x41n, 'out of memory'],
  [0x51n, 'uninitialized function'],
])

/**
 * Custom errors of widely used libraries (OpenZeppelin 5 ERC-20/721/1155, Ownable, AccessControl,
 * ReentrancyGuard, SafeERC20, Address, Pausable, Solady's common ones, Uniswap's), whose selectors
 * a developer otherwise has to look up.
 */
const COMMON_ERRORS = [
  'ERC20InsufficientBalance(address,uint256,uint256)',
  'ERC20InvalidSender(address)',
  'ERC20InvalidReceiver(address)',
  'ERC20InsufficientAllowance(address,uint256,uint256)',
  'ERC20InvalidApprover(address)',
  'ERC20InvalidSpender(address)',
  'ERC721InvalidOwner(address)',
  'ERC721NonexistentToken(uint256)',
  'ERC721IncorrectOwner(address,uint256,address)',
  'ERC721InvalidSender(address)',
  'ERC721InvalidReceiver(address)',
  'ERC721InsufficientApproval(address,uint256)',
  'ERC721InvalidApprover(address)',
  'ERC721InvalidOperator(address)',
  'ERC1155InsufficientBalance(address,uint256,uint256,uint256)',
  'ERC1155InvalidSender(address)',
  'ERC1155InvalidReceiver(address)',
  'ERC1155MissingApprovalForAll(address,address)',
  'ERC1155InvalidApprover(address)',
  'ERC1155InvalidOperator(address)',
  'ERC1155InvalidArrayLength(uint256,uint256)',
  'OwnableUnauthorizedAccount(address)',
  'OwnableInvalidOwner(address)',
  'AccessControlUnauthorizedAccount(address,bytes32)',
  'AccessControlBadConfirmation()',
  'ReentrancyGuardReentrantCall()',
  'SafeERC20FailedOperation(address)',
  'SafeERC20FailedDecreaseAllowance(address,uint256,uint256)',
  'AddressEmptyCode(address)',
  'AddressInsufficientBalance(address)',
  'FailedInnerCall()',
  'FailedCall()',
  'InsufficientBalance(uint256,uint256)',
  'EnforcedPause()',
  'ExpectedPause()',
  'InvalidInitialization()',
  'NotInitializing()',
  'ECDSAInvalidSignature()',
  'ECDSAInvalidSignatureLength(uint256)',
  'ECDSAInvalidSignatureS(bytes32)',
  'ERC2612ExpiredSignature(uint256)',
  'ERC2612InvalidSigner(address,address)',
  'InvalidAccountNonce(address,uint256)',
  'SafeCastOverflowedUintDowncast(uint8,uint256)',
  'SafeCastOverflowedIntToUint(int256)',
  'Unauthorized()',
  'TransferFailed()',
  'TransferFromFailed()',
  'ETHTransferFailed()',
  'ApproveFailed()',
  'InsufficientAllowance()',
  'Reentrancy()',
  'NewOwnerIsZeroAddress()',
  'NoHandoverRequest()',
  'Overflow()',
  'ZeroAddress()',
  'InvalidAmount()',
  'Expired()',
  'Slippage()',
]

// Filled on first use: hashing the common list costs a cold start ~10-80 ms of keccak in the
// interpreter, before `ringchain serve` could answer anything, and most runs never revert.
let registered: Map<number, string> | undefined
function registry(): Map<number, string> {
  if (registered === undefined) {
    registered = new Map()
    for (const signature of COMMON_ERRORS) registerSignature(registered, signature)
  }
  return registered
}

/** Registers custom error signatures (`Name(type,…)`, as in an ABI) so that their reverts are named. */
export function registerErrorSignatures(signatures: Iterable<string>): void {
  const map = registry()
  for (const signature of signatures) registerSignature(map, signature)
}

/** The error signatures of an ABI's `error` entries (`Name(type,…)`), for `registerErrorSignatures`. */
export function errorSignaturesOfAbi(abi: readonly unknown[]): string[] {
  const signatures: string[] = []
  for (const item of abi) {
    const entry = item as { type?: unknown; name?: unknown; inputs?: unknown }
    if (entry.type !== 'error' || typeof entry.name !== 'string' || !Array.isArray(entry.inputs)) continue
    signatures.push(`${entry.name}(${(entry.inputs as { type?: unknown; components?: unknown }[]).map(canonicalType).join(',')})`)
  }
  return signatures
}

function canonicalType(input: { type?: unknown; components?: unknown }): string {
  const type = String(input.type)
  if (!type.startsWith('tuple') || !Array.isArray(input.components)) return type
  return `(${(input.components as { type?: unknown; components?: unknown }[]).map(canonicalType).join(',')})${type.slice(5)}`
}

function registerSignature(map: Map<number, string>, signature: string): void {
  const hash = keccak_256(new TextEncoder().encode(signature))
  map.set(((hash[0]! << 24) | (hash[1]! << 16) | (hash[2]! << 8) | hash[3]!) >>> 0, signature)
}

const utf8 = new TextDecoder()

/**
 * What revert data says, or undefined when it is none of the known shapes.
 * @example explainRevert(panic(0x11)) // { kind: 'panic', reason: 'arithmetic underflow or overflow', panicCode: 17n }
 */
export function explainRevert(data: Uint8Array): RevertExplanation | undefined {
  if (data.length < 4) return undefined
  const selector = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0
  const body = data.subarray(4)
  if (selector === ERROR_SELECTOR) {
    const offset = readWord(body, 0)
    if (offset === undefined || offset + 32n > BigInt(body.length)) return undefined
    const start = Number(offset)
    const length = readWord(body, start)
    if (length === undefined || offset + 32n + length > BigInt(body.length)) return undefined
    return { kind: 'error', reason: utf8.decode(body.subarray(start + 32, start + 32 + Number(length))) }
  }
  if (selector === PANIC_SELECTOR) {
    const code = readWord(body, 0)
    if (code === undefined) return undefined
    return { kind: 'panic', reason: PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`, panicCode: code }
  }
  const signature = registry().get(selector)
  if (signature === undefined) return undefined
  return { kind: 'custom', reason: describeCustom(signature, body) }
}

/** geth's revert reason (`abi.UnpackRevert`): only `Error(string)` and `Panic(uint256)`. */
export function gethRevertReason(data: Uint8Array): string | undefined {
  const explained = explainRevert(data)
  return explained === undefined || explained.kind === 'custom' ? undefined : explained.reason
}

/**
 * The reason as ringchain words it where geth says nothing more: geth's text, the panic code
 * after a panic's meaning (`arithmetic underflow or overflow (0x11)`), a custom error by name
 * with its static arguments (`OwnableUnauthorizedAccount(0x…)`).
 */
export function describeRevert(data: Uint8Array): string | undefined {
  const explained = explainRevert(data)
  if (explained === undefined) return undefined
  return explained.panicCode === undefined ? explained.reason : `${explained.reason} (0x${explained.panicCode.toString(16)})`
}

/** `Name(arg, …)` with the static arguments decoded; dynamic ones are shown as their type. */
function describeCustom(signature: string, body: Uint8Array): string {
  const open = signature.indexOf('(')
  const types = signature.slice(open + 1, -1)
  if (types === '') return signature
  const list = types.includes('(') ? undefined : types.split(',')
  if (list === undefined) return signature
  const args = list.map((type, i) => {
    const word = readWord(body, i * 32)
    if (word === undefined) return type
    if (type === 'address') return `0x${word.toString(16).padStart(40, '0')}`
    if (type.startsWith('uint')) return word.toString()
    if (type.startsWith('int')) {
      const bits = BigInt(type.slice(3) || '256')
      return BigInt.asIntN(Number(bits), word).toString()
    }
    if (type === 'bool') return word === 0n ? 'false' : 'true'
    if (/^bytes\d+$/.test(type)) return `0x${word.toString(16).padStart(64, '0').slice(0, Number(type.slice(5)) * 2)}`
    return type
  })
  return `${signature.slice(0, open)}(${args.join(', ')})`
}

/** The big-endian 32-byte word at `at`, or undefined when the data is too short. */
function readWord(bytes: Uint8Array, at: number): bigint | undefined {
  if (at + 32 > bytes.length) return undefined
  let value = 0n
  for (let i = at; i < at + 32; i++) value = (value << 8n) | BigInt(bytes[i]!)
  return value
}
