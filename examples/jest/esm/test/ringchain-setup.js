import { startRingchain } from 'ringchain'

export default async function () {
  const rc = await startRingchain({ port: 0, isolate: true })
  globalThis.ringchain = rc                                             // for the teardown: same process
  process.env.RINGCHAIN_HTTP_BASE = `${new URL(rc.httpUrl).origin}/v3/` // the workers inherit it
}
