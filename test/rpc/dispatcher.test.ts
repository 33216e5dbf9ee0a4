import { describe, expect, expectTypeOf, test } from 'vitest'

import {
  type RpcContext,
  type RpcLogger,
  type RpcSession,
  RawJson,
  createDispatcher,
  defineMethod,
  rawJsonArray,
  subscriptionNotification,
} from '../../src/rpc/dispatcher.js'
import {
  BlockNotFoundError,
  ExecutionRevertedError,
  InternalError,
  PrunedHistoryError,
  RpcError,
  ServerError,
  toRpcError,
} from '../../src/rpc/errors.js'
import { fromHex, toQuantity } from '../../src/rpc/hex.js'
import { LATEST, type BlockParam, blockParam } from '../../src/rpc/params/block.js'
import { optional } from '../../src/rpc/params/decode.js'
import { address, quantity, storageSlot } from '../../src/rpc/params/values.js'

// --- a small fake registry ----------------------------------------------------------------------

class FakeDomainError extends Error {
  override name = 'FakeDomainError'
}

function setup(options: { maxBatchLength?: number } = {}) {
  const calls: string[] = []
  const logged: { message: string; method: string | undefined; error: unknown }[] = []
  const logger: RpcLogger = { error: (message, details) => logged.push({ message, ...details }) }
  let seenContext: RpcContext | undefined

  const methods = {
    eth_chainId: defineMethod([], () => '0x1'),
    echo_quantity: defineMethod([quantity], ([value]) => toQuantity(value)),
    eth_getStorageAt: defineMethod([address, storageSlot, optional(blockParam, LATEST)], ([, , block]) => block.kind),
    record: defineMethod([optional(quantity)], ([value], ctx) => {
      calls.push(`${ctx.method}:${value}`)
      seenContext = ctx
      return true
    }),
    slow: defineMethod([quantity], async ([ms]) => {
      await new Promise((resolve) => setTimeout(resolve, Number(ms)))
      calls.push(`slow:${ms}`)
      return Number(ms)
    }),
    nothing: defineMethod([], () => undefined),
    cached: defineMethod([], () => new RawJson('{"b":1,"a":[2,3]}')),
    cached_list: defineMethod([], () => rawJsonArray([new RawJson('{"a":1}'), new RawJson('null')])),
    header_not_found: defineMethod([], () => {
      throw new ServerError('header not found')
    }),
    block_not_found: defineMethod([], async () => {
      throw new BlockNotFoundError()
    }),
    reverted: defineMethod([], () => {
      throw new ExecutionRevertedError(
        fromHex(
          '0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000a75736572206572726f72',
        ),
      )
    }),
    panicked: defineMethod([], () => {
      throw new ExecutionRevertedError(
        fromHex('0x4e487b710000000000000000000000000000000000000000000000000000000000000001'),
      )
    }),
    reverted_plain: defineMethod([], () => {
      throw new ExecutionRevertedError(fromHex('0x77726f6e672d63616c6c6461746173697a65'))
    }),
    pruned: defineMethod([], () => {
      throw new PrunedHistoryError(12n, 73n, 200n)
    }),
    domain: defineMethod([], () => {
      throw new FakeDomainError('nonce too low: next nonce 3, tx nonce 1')
    }),
    broken: defineMethod([], () => {
      throw new TypeError('secret detail at /home/x/stack')
    }),
    broken_async: defineMethod([], () => Promise.reject(new Error('async detail'))),
    not_json: defineMethod([], () => ({ balance: 1n })),
  }

  const dispatch = createDispatcher(methods, {
    logger,
    ...(options.maxBatchLength === undefined ? {} : { maxBatchLength: options.maxBatchLength }),
    mapDomainError: (error) => (error instanceof FakeDomainError ? new ServerError(error.message) : undefined),
  })
  const session: RpcSession = { transport: 'http', apiKey: 'key', send() {}, onClose() {}, closed: false }
  const call = (body: unknown) => dispatch(typeof body === 'string' ? body : JSON.stringify(body), session)
  return { call, calls, logged, session, context: () => seenContext }
}

const request = (method: string, params?: unknown[], id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
})

// --- tests --------------------------------------------------------------------------------------

test('default', async () => {
  const { call } = setup()
  expect(await call(request('eth_chainId', []))).toBe('{"jsonrpc":"2.0","id":1,"result":"0x1"}')
})

test('behavior: handler params are decoded and typed', async () => {
  const { call } = setup()
  expect(await call(request('echo_quantity', ['0xff']))).toBe('{"jsonrpc":"2.0","id":1,"result":"0xff"}')
})

test('behavior: handler param types follow from the decoders', () => {
  const spec = defineMethod([address, optional(blockParam, LATEST)], ([owner, block]) => {
    expectTypeOf(owner).toEqualTypeOf<Uint8Array>()
    expectTypeOf(block).toEqualTypeOf<BlockParam>()
    return null
  })
  expectTypeOf(spec.handler).parameter(0).toEqualTypeOf<readonly [Uint8Array, BlockParam]>()
})

test('behavior: params may be absent or null', async () => {
  const { call } = setup()
  expect(await call(request('eth_chainId'))).toBe('{"jsonrpc":"2.0","id":1,"result":"0x1"}')
  expect(await call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: null })).toBe(
    '{"jsonrpc":"2.0","id":1,"result":"0x1"}',
  )
})

test('behavior: optional block parameter defaults to latest', async () => {
  const { call } = setup()
  expect(await call(request('eth_getStorageAt', ['0xaa00000000000000000000000000000000000000', '0x0']))).toBe(
    '{"jsonrpc":"2.0","id":1,"result":"tag"}',
  )
})

test('behavior: async handler', async () => {
  const { call } = setup()
  expect(await call(request('slow', ['0x1']))).toBe('{"jsonrpc":"2.0","id":1,"result":1}')
})

test('behavior: handler gets the session and the method name', async () => {
  const { call, context, session } = setup()
  await call(request('record', []))
  expect(context()?.session).toBe(session)
  expect(context()?.method).toBe('record')
})

describe('id', () => {
  test.each([
    ['a number', 7, '7'],
    ['zero', 0, '0'],
    ['a negative number', -3, '-3'],
    ['a fraction', 1.5, '1.5'],
    ['a string', 'abc"\\', '"abc\\"\\\\"'],
    ['an empty string', '', '""'],
    ['null', null, 'null'],
  ])('behavior: id echoed exactly: %s', async (_, id, echoed) => {
    const { call } = setup()
    expect(await call(request('eth_chainId', [], id))).toBe(`{"jsonrpc":"2.0","id":${echoed},"result":"0x1"}`)
  })

  test('behavior: "id": null is not a notification', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","id":null,"method":"eth_chainId"}')).toBe(
      '{"jsonrpc":"2.0","id":null,"result":"0x1"}',
    )
  })

  test.each([
    ['an object', { a: 1 }],
    ['an array', [1]],
    ['a boolean', true],
  ])('error: bad id type: %s', async (_, id) => {
    const { call, calls } = setup()
    expect(await call(request('record', [], id))).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}',
    )
    expect(calls).toEqual([])
  })
})

describe('notifications', () => {
  test('behavior: notification gets no answer', async () => {
    const { call, calls } = setup()
    expect(await call('{"jsonrpc":"2.0","method":"record","params":["0x5"]}')).toBeUndefined()
    expect(calls).toEqual(['record:5'])
  })

  test('behavior: notification of an unknown method gets no answer', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","method":"nope"}')).toBeUndefined()
  })

  test('behavior: failing notification gets no answer', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","method":"echo_quantity","params":["0x01"]}')).toBeUndefined()
    expect(await call('{"jsonrpc":"2.0","method":"header_not_found"}')).toBeUndefined()
  })

  test('behavior: internal error of a notification is still logged', async () => {
    const { call, logged } = setup()
    expect(await call('{"jsonrpc":"2.0","method":"broken"}')).toBeUndefined()
    expect(logged).toHaveLength(1)
  })

  test('error: invalid request without id is still answered', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","method":1}')).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}',
    )
  })
})

describe('batch', () => {
  test('behavior: batch answered in order', async () => {
    const { call } = setup()
    const body = [request('echo_quantity', ['0x1'], 'a'), request('nope', [], 'b'), request('echo_quantity', ['0x3'], 'c')]
    expect(await call(body)).toBe(
      '[{"jsonrpc":"2.0","id":"a","result":"0x1"},' +
        '{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"the method nope does not exist/is not available"}},' +
        '{"jsonrpc":"2.0","id":"c","result":"0x3"}]',
    )
  })

  test('behavior: batch items run one after another', async () => {
    const { call, calls } = setup()
    const answer = await call([request('slow', ['0x14'], 1), request('record', ['0x1'], 2)])
    expect(calls).toEqual(['slow:20', 'record:1'])
    expect(answer).toBe('[{"jsonrpc":"2.0","id":1,"result":20},{"jsonrpc":"2.0","id":2,"result":true}]')
  })

  test('behavior: notifications in a batch get no entry', async () => {
    const { call, calls } = setup()
    const answer = await call([{ jsonrpc: '2.0', method: 'record', params: ['0x7'] }, request('eth_chainId', [], 2)])
    expect(answer).toBe('[{"jsonrpc":"2.0","id":2,"result":"0x1"}]')
    expect(calls).toEqual(['record:7'])
  })

  test('behavior: a batch of notifications only gets no answer', async () => {
    const { call, calls } = setup()
    const notification = { jsonrpc: '2.0', method: 'record' }
    expect(await call([notification, notification])).toBeUndefined()
    expect(calls).toHaveLength(2)
  })

  test('behavior: a batch of one is still an array', async () => {
    const { call } = setup()
    expect(await call([request('eth_chainId', [])])).toBe('[{"jsonrpc":"2.0","id":1,"result":"0x1"}]')
  })

  test('error: empty batch', async () => {
    const { call } = setup()
    expect(await call('[]')).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}')
  })

  test('error: batch too large', async () => {
    const { call, calls } = setup({ maxBatchLength: 2 })
    const body = [{ jsonrpc: '2.0', method: 'record' }, request('record', [], 9), request('record', [], 10)]
    expect(await call(body)).toBe('[{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"batch too large"}}]')
    expect(calls).toEqual([])
  })

  test('behavior: default batch limit is 1000', async () => {
    const { call } = setup()
    const ok = JSON.parse((await call(new Array(1000).fill(request('eth_chainId', []))))!) as unknown[]
    expect(ok).toHaveLength(1000)
    expect(await call(new Array(1001).fill(request('eth_chainId', [])))).toContain('batch too large')
  })

  test('error: batch items that are not objects', async () => {
    const { call } = setup()
    const invalid = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}'
    expect(await call('[1,"x",null,[]]')).toBe(`[${invalid},${invalid},${invalid},${invalid}]`)
  })
})

describe('envelope errors', () => {
  test('error: parse error', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0",')).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}',
    )
    expect(await call('')).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
  })

  test('error: parse error in a batch answers once', async () => {
    const { call } = setup()
    expect(await call('[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},')).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}',
    )
  })

  test.each([['a number', '1'], ['a string', '"eth_chainId"'], ['null', 'null'], ['true', 'true']])(
    'error: body is %s',
    async (_, body) => {
      const { call } = setup()
      expect(await call(body)).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}')
    },
  )

  test.each([
    ['missing jsonrpc', { id: 4, method: 'eth_chainId' }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 4, method: 'eth_chainId' }],
    ['jsonrpc as a number', { jsonrpc: 2, id: 4, method: 'eth_chainId' }],
    ['missing method', { jsonrpc: '2.0', id: 4 }],
    ['method not a string', { jsonrpc: '2.0', id: 4, method: ['eth_chainId'] }],
    ['params an object', { jsonrpc: '2.0', id: 4, method: 'eth_chainId', params: { a: 1 } }],
    ['params a string', { jsonrpc: '2.0', id: 4, method: 'eth_chainId', params: '0x1' }],
  ])('error: invalid request: %s (valid id echoed)', async (_, body) => {
    const { call } = setup()
    expect(await call(body)).toBe('{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"invalid request"}}')
  })
})

describe('method errors', () => {
  test('error: method not found', async () => {
    const { call } = setup()
    expect(await call(request('eth_nope', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method eth_nope does not exist/is not available"}}',
    )
  })

  test.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])(
    'error: inherited name %s is not a method',
    async (method) => {
      const { call } = setup()
      expect(await call(request(method, []))).toContain('"code":-32601')
    },
  )

  test('error: method is looked up before its params are decoded', async () => {
    const { call } = setup()
    expect(await call(request('eth_nope', ['0x01', 'junk']))).toContain('"code":-32601')
  })

  test('error: invalid params', async () => {
    const { call, calls } = setup()
    expect(await call(request('echo_quantity', ['0x01']))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big"}}',
    )
    expect(await call(request('record', ['0x1', '0x2']))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"too many arguments, want at most 1"}}',
    )
    expect(await call(request('echo_quantity', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"missing value for required argument 0"}}',
    )
    expect(calls).toEqual([])
  })

  test('error: slot longer than 32 bytes', async () => {
    // execution-apis tests/eth_getStorageAt/get-storage-invalid-key-too-large.io, whole exchange
    const { call } = setup()
    const body =
      '{"jsonrpc":"2.0","id":1,"method":"eth_getStorageAt","params":["0xaa00000000000000000000000000000000000000","0x00000000000000000000000000000000000000000000000000000000000000000","latest"]}'
    expect(await call(body)).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"storage key too long (want at most 32 bytes): \\"0x00000000000000000000000000000000000000000000000000000000000000000\\""}}',
    )
  })

  test('error: handler throws an RpcError', async () => {
    const { call } = setup()
    expect(await call(request('header_not_found', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"header not found"}}',
    )
    expect(await call(request('block_not_found', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"block not found"}}',
    )
  })

  test('error: execution reverted with a reason', async () => {
    // execution-apis tests/eth_call/call-revert-abi-error.io
    const { call } = setup()
    expect(await call(request('reverted', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: user error","data":"0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000a75736572206572726f72"}}',
    )
  })

  test('error: execution reverted with a panic', async () => {
    // execution-apis tests/eth_call/call-revert-abi-panic.io
    const { call } = setup()
    expect(await call(request('panicked', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted: assert(false)","data":"0x4e487b710000000000000000000000000000000000000000000000000000000000000001"}}',
    )
  })

  test('error: execution reverted without a reason', async () => {
    // execution-apis tests/eth_estimateGas/estimate-failed-call.io
    const { call } = setup()
    expect(await call(request('reverted_plain', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted","data":"0x77726f6e672d63616c6c6461746173697a65"}}',
    )
  })

  test('error: pruned history', async () => {
    const { call } = setup()
    expect(await call(request('pruned', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":4444,"message":"pruned history unavailable: block 12 is outside the served window 73..200","data":{"requested":"0xc","oldest":"0x49","head":"0xc8"}}}',
    )
  })

  test('error: domain error through the mapper', async () => {
    const { call, logged } = setup()
    expect(await call(request('domain', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"nonce too low: next nonce 3, tx nonce 1"}}',
    )
    expect(logged).toEqual([])
  })

  test('error: internal error is generic on the wire and detailed in the log', async () => {
    const { call, logged } = setup()
    expect(await call(request('broken', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}',
    )
    expect(logged).toHaveLength(1)
    expect(logged[0]!.method).toBe('broken')
    expect(logged[0]!.message).toBe('internal error in broken')
    expect((logged[0]!.error as Error).message).toBe('secret detail at /home/x/stack')
  })

  test('error: rejected promise', async () => {
    const { call, logged } = setup()
    expect(await call(request('broken_async', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}',
    )
    expect((logged[0]!.error as Error).message).toBe('async detail')
  })

  test('error: result that is not JSON', async () => {
    const { call, logged } = setup()
    expect(await call(request('not_json', []))).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}',
    )
    expect(logged).toHaveLength(1)
  })
})

describe('results', () => {
  test('behavior: RawJson result is spliced as it is', async () => {
    const { call } = setup()
    expect(await call(request('cached', []))).toBe('{"jsonrpc":"2.0","id":1,"result":{"b":1,"a":[2,3]}}')
    expect(await call(request('cached_list', []))).toBe('{"jsonrpc":"2.0","id":1,"result":[{"a":1},null]}')
  })

  test('behavior: undefined result is null', async () => {
    const { call } = setup()
    expect(await call(request('nothing', []))).toBe('{"jsonrpc":"2.0","id":1,"result":null}')
  })

  test('behavior: subscription notification envelope', () => {
    expect(subscriptionNotification('0xabc', new RawJson('{"number":"0x1"}'))).toBe(
      '{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0xabc","result":{"number":"0x1"}}}',
    )
  })
})

describe('toRpcError', () => {
  test('behavior: RpcErrors pass through', () => {
    const error = new ServerError('already known')
    expect(toRpcError(error)).toBe(error)
  })

  test('behavior: unknown errors become InternalError with the cause kept', () => {
    const cause = new Error('boom')
    const error = toRpcError(cause)
    expect(error).toBeInstanceOf(InternalError)
    expect(error.message).toBe('internal error')
    expect(error.code).toBe(-32603)
    expect(error.cause).toBe(cause)
  })

  test('behavior: the mapper decides for domain errors', () => {
    const mapped = toRpcError(new FakeDomainError('x'), () => new ServerError('mapped'))
    expect(mapped.message).toBe('mapped')
    expect(toRpcError(new FakeDomainError('x'), () => undefined)).toBeInstanceOf(InternalError)
  })

  test('error: a mapper that throws gives an internal error', () => {
    const error = toRpcError(new FakeDomainError('x'), () => {
      throw new Error('mapper bug')
    })
    expect(error).toBeInstanceOf(InternalError)
  })

  test('behavior: codes are static on the classes', () => {
    expect(ServerError.code).toBe(-32000)
    expect(new ServerError('x')).toBeInstanceOf(RpcError)
    expect(new ServerError('x').code).toBe(ServerError.code)
  })
})
