// Hardhat's viem plugin (hre.viem) against ringchain: deploy, write, read, events.
const { expect } = require('chai')
const { viem, network } = require('hardhat')

describe('Counter with viem', function () {
  let snapshot
  beforeEach(async function () {
    snapshot = await network.provider.send('evm_snapshot')
  })
  afterEach(async function () {
    await network.provider.send('evm_revert', [snapshot])
  })

  it('deploys, increments and reads the count', async function () {
    const [wallet] = await viem.getWalletClients()
    const publicClient = await viem.getPublicClient()
    const counter = await viem.deployContract('Counter')
    const hash = await counter.write.increment()
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).to.equal('success')
    expect(await counter.read.count()).to.equal(1n)
    const [event] = await counter.getEvents.Incremented()
    expect(event.args.by.toLowerCase()).to.equal(wallet.account.address.toLowerCase())
  })

  it('starts from the chain as it was: the previous test was reverted', async function () {
    const publicClient = await viem.getPublicClient()
    expect(await publicClient.getBlockNumber()).to.equal(0n)
  })
})
