/**
 * What a call pays, as geth's `eth_call` and `eth_estimateGas` work it out (TransactionArgs'
 * `CallDefaults` and `ToMessage`, then the state transition's `preCheck` and `buyGas`): a call
 * that names no fee pays nothing and runs with a base fee of 0; one that names a fee (or carries
 * value) must be able to pay for all its gas at the fee cap, plus the value, or it is refused.
 *
 * Owns: the effective gas price, the fee-cap checks and the balance check of a call, and the
 * estimate's allowance (the most gas the balance pays for). Leaves running the call to `executor.ts`.
 */
import { toChecksumAddress, type Address } from '@ethereumjs/util'
import { ExecutionFailedError, InsufficientFundsError, TxRejectedError } from '../errors.js'
import type { CallParams } from './params.js'

/** The prices a call runs with (geth's message: GasPrice, GasFeeCap, GasTipCap). */
export interface CallPricing {
  /** What one unit of gas costs (GASPRICE); 0 when the call names no fee. */
  readonly gasPrice: bigint
  /** What the balance check multiplies the gas by. */
  readonly feeCap: bigint
  readonly tip: bigint
}

/** The call's prices under a block with `baseFee` (undefined before London), as geth's `ToMessage`. */
export function callPricing(params: CallParams, baseFee: bigint | undefined): CallPricing {
  if (params.gasPrice !== undefined && (params.maxFeePerGas !== undefined || params.maxPriorityFeePerGas !== undefined)) {
    throw new ExecutionFailedError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  if (baseFee === undefined || params.gasPrice !== undefined) {
    const gasPrice = params.gasPrice ?? 0n
    return { gasPrice, feeCap: gasPrice, tip: gasPrice }
  }
  const feeCap = params.maxFeePerGas ?? 0n
  const tip = params.maxPriorityFeePerGas ?? 0n
  if (feeCap === 0n && tip === 0n) return { gasPrice: 0n, feeCap, tip }
  const gasPrice = tip + baseFee < feeCap ? tip + baseFee : feeCap
  return { gasPrice, feeCap, tip }
}

/**
 * geth's `preCheck` fee rules for a call in a block with `baseFee`: a call naming a fee must name
 * a valid one (a call naming none is exempt, as geth's NoBaseFee exempts it).
 */
export function checkFeeCaps(pricing: CallPricing, from: Address, baseFee: bigint | undefined): void {
  if (baseFee === undefined || (pricing.feeCap === 0n && pricing.tip === 0n)) return
  if (pricing.feeCap < pricing.tip) {
    throw new TxRejectedError(`max priority fee per gas higher than max fee per gas: address ${hexOf(from)}, maxPriorityFeePerGas: ${pricing.tip}, maxFeePerGas: ${pricing.feeCap}`)
  }
  if (pricing.feeCap < baseFee) {
    throw new TxRejectedError(`max fee per gas less than block base fee: address ${hexOf(from)}, maxFeePerGas: ${pricing.feeCap}, baseFee: ${baseFee}`)
  }
}

/**
 * geth's `buyGas`: the balance must cover `gas` at the fee cap plus the value. Returns what the
 * call is charged up front (gas at the effective price), which the sender's balance loses while
 * the call runs.
 */
export function chargeForGas(pricing: CallPricing, gas: bigint, value: bigint, from: Address, balance: bigint): bigint {
  const want = gas * pricing.feeCap + value
  if (balance < want) throw new InsufficientFundsError(hexOf(from), balance, want)
  return gas * pricing.gasPrice
}

/**
 * geth's estimator caps the gas it searches by what the balance pays for at the fee cap, once the
 * value is set aside; a value the balance does not exceed is refused outright (geth's words).
 * Returns `hi`, or the allowance when that is lower.
 */
export function capByAllowance(pricing: CallPricing, hi: bigint, value: bigint, balance: bigint): bigint {
  if (pricing.feeCap === 0n) return hi
  if (value >= balance) throw new TxRejectedError('insufficient funds for transfer')
  const allowance = (balance - value) / pricing.feeCap
  return allowance < hi ? allowance : hi
}

/** An address as geth writes it in these messages (`common.Address.Hex()`: EIP-55 checksummed). */
function hexOf(address: Address): string {
  return toChecksumAddress(address.toString())
}
