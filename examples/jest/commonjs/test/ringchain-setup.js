// Runs in jest's own process, where Node's require loads ringchain (an ES module). Test files run
// in jest's module sandbox, which cannot: they reach the chain over HTTP only.
const { startRingchain } = require('ringchain')

module.exports = async function () {
  const rc = await startRingchain({ port: 0, isolate: true })
  globalThis.ringchain = rc                                             // for the teardown: same process
  process.env.RINGCHAIN_HTTP_BASE = `${new URL(rc.httpUrl).origin}/v3/` // the workers inherit it
}
