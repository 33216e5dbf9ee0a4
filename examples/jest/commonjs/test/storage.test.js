const { call } = require('./ringchain-each.js')
const { joinPair } = require('./together.js')

const meet = joinPair('storage', 'transfer')
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'  // the first dev account: unlocked
// Runtime code PUSH1 0x2a PUSH1 0 SSTORE STOP (stores 0x2a in slot 0), and init code returning it
const INIT = '0x69602a6000550000000000600052600a6016f3'
let contract

test('writes, and the other file does not see it', async () => {
  const deployed = await call('eth_sendTransaction', [{ from: FROM, data: INIT }])
  contract = (await call('eth_getTransactionReceipt', [deployed])).contractAddress
  await call('eth_sendTransaction', [{ from: FROM, to: contract }])
  await meet('wrote')                                                    // the other file has written too
  expect(await call('eth_getStorageAt', [contract, '0x0', 'latest'])).toBe(`0x${'2a'.padStart(64, '0')}`)
  expect(await call('eth_blockNumber')).toBe('0x2')                     // the other file's block is not here
  await meet('read')
})

test('the next test starts from the snapshot', async () => {
  expect(await call('eth_blockNumber')).toBe('0x0')
  expect(await call('eth_getCode', [contract, 'latest'])).toBe('0x')
})
