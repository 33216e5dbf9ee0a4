import assert from 'node:assert/strict'
import { call } from './ringchain.js'
import { joinPair } from './together.js'

const meet = joinPair('transfer', 'storage')
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'  // the first dev account: unlocked
const RECIPIENT = '0x00000000000000000000000000000000000a11ce'

describe('transfer', () => {
  it('writes, and the other file does not see it', async () => {
    await call('eth_sendTransaction', [{ from: FROM, to: RECIPIENT, value: '0x1' }])
    await meet('wrote')                                                    // the other file has written too
    assert.equal(await call('eth_getBalance', [RECIPIENT, 'latest']), '0x1')
    assert.equal(await call('eth_blockNumber'), '0x1')                     // the other file's block is not here
    await meet('read')
  })

  it('the next test starts from the snapshot', async () => {
    assert.equal(await call('eth_blockNumber'), '0x0')
    assert.equal(await call('eth_getBalance', [RECIPIENT, 'latest']), '0x0')
  })
})
