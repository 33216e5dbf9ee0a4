/**
 * An EIP-1559 transaction built from its decoded fields without ethereumjs's constructor
 * (`FeeMarket1559Tx`, 10.1.x), for the plain case every test suite sends: no access list, each
 * field within the bounds the constructor checks.
 *
 * Why: the constructor spreads its data object twice, scans it for arrays, and converts each field
 * through a hex string; in the first tests of a suite, before V8 optimizes it, that was the
 * largest part of decoding a transaction after recovering its sender.
 * Owns: the test that a transaction is plain, and the instance, with the properties the
 * constructor sets, in its order. Leaves every other transaction to ethereumjs (`validate.ts`),
 * which then answers with its own words. A test compares both builds field by field.
 * The constructor gives each transaction its own copy of the chain's `Common`; here the
 * transactions of one state of it share one copy (`sharedCommon.ts`), and what the checks read
 * of the fork is worked out once per copy.
 */
import type { Common } from '@ethereumjs/common'
import { FeeMarket1559Tx, TransactionType, paramsTx } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { bigIntOf as toBigInt } from './encoding.js'
import { sharedCopy, type SharedCopies } from './sharedCommon.js'

/** The EIP-1559 transaction of `fields` (a signed one's twelve), or undefined when it is not plain. */
export function plainFeeMarketTx(fields: readonly unknown[], common: Common): FeeMarket1559Tx | undefined {
  if (fields.length !== 12) return undefined
  const [chainId, nonce, tip, feeCap, gas, to, value, data, accessList, v, r, s] = fields
  if (!(chainId instanceof Uint8Array && data instanceof Uint8Array && to instanceof Uint8Array)) return undefined
  if (!Array.isArray(accessList) || accessList.length > 0) return undefined
  // ethereumjs's bounds: nonce and gas 64 bits, the fee cap small enough that gas times it fits in
  // 256 bits, the rest 256 bits; no leading zero byte; the y-parity 0 or 1.
  if (!(canonical(nonce, 8) && canonical(gas, 8) && canonical(tip, 32) && canonical(feeCap, 24) && canonical(value, 32))) return undefined
  if (!(canonical(r, 32) && canonical(s, 32) && canonical(v, 1)) || (v.length === 1 && v[0] !== 1) || r.length === 0 || s.length === 0) return undefined
  // EIP-2681: a nonce below 2^64 - 1.
  if (nonce.length === 8 && nonce.every((byte) => byte === 0xff)) return undefined
  if (to.length !== 20 && to.length !== 0) return undefined
  const maxFeePerGas = toBigInt(feeCap)
  const maxPriorityFeePerGas = toBigInt(tip)
  const sValue = toBigInt(s)
  const chain = sharedCopy(txCommons, common, paramsTx)
  const rules = rulesOf(chain)
  if (maxFeePerGas < maxPriorityFeePerGas || sValue > HALF_ORDER || toBigInt(chainId) !== rules.chainId) return undefined
  if (!rules.feeMarket) return undefined
  if (to.length === 0 && rules.maxInitCodeSize !== undefined && BigInt(data.length) > rules.maxInitCodeSize) return undefined
  const gasLimit = toBigInt(gas)
  if (rules.maxGas !== undefined && gasLimit > rules.maxGas) return undefined
  // The instance the constructor would make (its fields are read-only to TypeScript).
  const tx = Object.create(FeeMarket1559Tx.prototype) as Record<string, unknown>
  tx.type = TransactionType.FeeMarketEIP1559
  tx.cache = {}
  tx.activeCapabilities = [1559, 2718, 2930]
  tx.common = chain
  tx.txOptions = { common, freeze: false }
  tx.to = to.length === 0 ? undefined : new Address(to)
  tx.nonce = toBigInt(nonce)
  tx.gasLimit = gasLimit
  tx.value = toBigInt(value)
  tx.data = data
  tx.v = toBigInt(v)
  tx.r = toBigInt(r)
  tx.s = sValue
  tx.chainId = rules.chainId
  tx.accessList = accessList
  tx.maxFeePerGas = maxFeePerGas
  tx.maxPriorityFeePerGas = maxPriorityFeePerGas
  return tx as unknown as FeeMarket1559Tx
}

/** Per chain `Common`: the copy its plain transactions share, made again when the chain's changes. */
const txCommons: SharedCopies = new WeakMap()

/** What the constructor reads of the fork to check a transaction. */
interface TxRules {
  readonly chainId: bigint
  /** Whether EIP-1559 is on. */
  readonly feeMarket: boolean
  /** EIP-3860's limit on a creation's data, when on. */
  readonly maxInitCodeSize: bigint | undefined
  /** EIP-7825's cap on a transaction's gas, when on and not lifted by EIP-8037 (as the constructor has it). */
  readonly maxGas: bigint | undefined
}

/** Per shared copy (a fork change makes another). */
const rulesByCommon = new WeakMap<Common, TxRules>()

function rulesOf(chain: Common): TxRules {
  let rules = rulesByCommon.get(chain)
  if (rules === undefined) {
    rules = {
      chainId: chain.chainId(),
      feeMarket: chain.isActivatedEIP(1559),
      maxInitCodeSize: chain.isActivatedEIP(3860) ? chain.param('maxInitCodeSize') : undefined,
      maxGas: chain.isActivatedEIP(7825) && !chain.isActivatedEIP(8037) ? chain.param('maxTransactionGasLimit') : undefined,
    }
    rulesByCommon.set(chain, rules)
  }
  return rules
}

/** Whether `field` is bytes of at most `size`, without a leading zero byte. */
function canonical(field: unknown, size: number): field is Uint8Array {
  return field instanceof Uint8Array && field.length <= size && (field.length === 0 || field[0] !== 0)
}

/** secp256k1's order over two: a larger s is refused (EIP-2, which ethereumjs checks from Homestead). */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n
