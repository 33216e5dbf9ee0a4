/**
 * The dev accounts: `eth_accounts` (`eth_requestAccounts` aliases it) and the message-signing
 * methods a dev node answers with their keys: `personal_sign` and `eth_sign` (EIP-191 "Ethereum
 * Signed Message") and `eth_signTypedData_v4` (EIP-712).
 *
 * Owns: their params, the `unknown account` refusal (geth's text), and the signature's wire form,
 * r ‖ s ‖ v with v 27 or 28, deterministic (RFC 6979) as geth and anvil sign. Leaves the EIP-191
 * and EIP-712 hashing and the signing itself to micro-eth-signer, loaded on the first signature so
 * that a start never pays for it; `eth_signTransaction` lives with `eth_sendTransaction` in
 * `send.ts`, whose transaction defaults it shares.
 */
import { equalsBytes } from '@ethereumjs/util'
import type { Chain } from '../../chain/chain.js'
import type { DevAccount } from '../../chain/accounts.js'
import type { ChainFor } from '../context.js'
import { defineMethod, type MethodSpec, type Registry } from '../dispatcher.js'
import { InvalidParamsError, ServerError } from '../errors.js'
import { toData } from '../hex.js'
import { none, optional, type Param } from '../params/decode.js'
import { address, data, typedData } from '../params/values.js'

/** The account and signing methods over `chainFor`. */
export function accountMethods(chainFor: ChainFor) {
  const accounts = defineMethod(none, async (_p, ctx) => (await chainFor(ctx)).accounts.map((a) => toData(a.address)))
  return {
    eth_accounts: accounts,
    eth_requestAccounts: accounts,
    eth_sign: ethSignMethod(chainFor),
    personal_sign: personalSignMethod(chainFor),
    eth_signTypedData_v4: signTypedDataMethod(chainFor),
  } satisfies Registry
}

type Micro = typeof import('micro-eth-signer')
let micro: Promise<Micro> | undefined
const loadMicro = (): Promise<Micro> => (micro ??= import('micro-eth-signer'))

/** The dev account of `owner`; anything else (an impersonated account too: it has no key) is refused as geth refuses it. */
function devAccount(chain: Chain, owner: Uint8Array): DevAccount {
  const found = chain.accounts.find((a) => equalsBytes(a.address, owner))
  if (found === undefined) throw new ServerError('unknown account')
  return found
}

/** The EIP-191 signature of `message` (`"\x19Ethereum Signed Message:\n" + len + message`). */
async function signMessage(chain: Chain, owner: Uint8Array, message: Uint8Array): Promise<string> {
  const key = devAccount(chain, owner).privateKey
  // extraEntropy false: RFC 6979 nonces, the same signature every time, as geth and anvil give.
  return (await loadMicro()).eip191Signer.sign(message, key, false)
}

/** geth's personal_sign took a password third; it is accepted and ignored, as there is nothing to unlock. */
const password: Param<unknown> = { decode: (value) => value }

/**
 * `personal_sign(data, address)`: the EIP-191 signature of `data` by a dev account.
 *
 * @example
 * // personal_sign('0x68656c6c6f', '0xf39f…2266') → '0x…1b' (65 bytes, v = 27 or 28)
 */
function personalSignMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([data, address, optional(password)], async ([message, owner], ctx) => signMessage(await chainFor(ctx), owner, message))
}

/** `eth_sign(address, data)`: `personal_sign` with its arguments the other way round (geth, anvil). */
function ethSignMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([address, data], async ([owner, message], ctx) => signMessage(await chainFor(ctx), owner, message))
}

/**
 * `eth_signTypedData_v4(address, typedData)`: the EIP-712 signature of typed data (a JSON string or
 * an object). `types.EIP712Domain`, when given, is the domain's type; otherwise it is derived
 * from the domain's fields, as anvil does. A type or value that does not encode is -32602.
 */
function signTypedDataMethod(chainFor: ChainFor): MethodSpec {
  return defineMethod([address, typedData], async ([owner, typed], ctx) => {
    const key = devAccount(await chainFor(ctx), owner).privateKey
    const { signTyped } = await loadMicro()
    try {
      return signTyped(typed as Parameters<Micro['signTyped']>[0], key, false)
    } catch (error) {
      throw new InvalidParamsError(`invalid argument 1: ${(error as Error).message}`, { cause: error })
    }
  })
}
