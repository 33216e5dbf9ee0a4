module.exports = async function () {
  await globalThis.ringchain.close()
}
