// Hardhat's ethers plugin (hre.ethers) against ringchain: deploy, send, read, events.
const { expect } = require('chai')
const { ethers, network } = require('hardhat')

describe('Counter with ethers', function () {
  // Each test starts from the same chain: a snapshot before, a revert after.
  let snapshot
  beforeEach(async function () {
    snapshot = await network.provider.send('evm_snapshot')
  })
  afterEach(async function () {
    await network.provider.send('evm_revert', [snapshot])
  })

  it('deploys, increments and reads the count', async function () {
    const [owner] = await ethers.getSigners()
    const counter = await ethers.deployContract('Counter')
    const receipt = await (await counter.increment()).wait()
    expect(receipt.status).to.equal(1)
    expect(await counter.count()).to.equal(1n)
    const [event] = await counter.queryFilter(counter.filters.Incremented())
    expect(event.args.by).to.equal(owner.address)
  })

  it('starts from the chain as it was: the previous test was reverted', async function () {
    expect(await ethers.provider.getBlockNumber()).to.equal(0)
    const [owner] = await ethers.getSigners()
    expect(await ethers.provider.getTransactionCount(owner.address)).to.equal(0)
  })
})
