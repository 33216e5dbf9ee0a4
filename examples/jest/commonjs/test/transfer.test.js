const { call } = require('./ringchain-each.js')
const { joinPair } = require('./together.js')

const meet = joinPair('transfer', 'storage')
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'  // the first dev account: unlocked
const RECIPIENT = '0x00000000000000000000000000000000000a11ce'

test('writes, and the other file does not see it', async () => {
  await call('eth_sendTransaction', [{ from: FROM, to: RECIPIENT, value: '0x1' }])
  await meet('wrote')                                                    // the other file has written too
  expect(await call('eth_getBalance', [RECIPIENT, 'latest'])).toBe('0x1')
  expect(await call('eth_blockNumber')).toBe('0x1')                     // the other file's block is not here
  await meet('read')
})

test('the next test starts from the snapshot', async () => {
  expect(await call('eth_blockNumber')).toBe('0x0')
  expect(await call('eth_getBalance', [RECIPIENT, 'latest'])).toBe('0x0')
})
