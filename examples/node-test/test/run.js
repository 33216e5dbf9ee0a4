// One ringchain server for the run, then node:test runs the files, two processes at a time; each
// file's process uses its own key, so its own chain.
import { run } from 'node:test'
import { spec } from 'node:test/reporters'
import { startRingchain } from 'ringchain'

const rc = await startRingchain({ port: 0, isolate: true })
process.env.RINGCHAIN_HTTP_BASE = `${new URL(rc.httpUrl).origin}/v3/` // the test processes inherit it

const files = ['test/transfer.test.js', 'test/storage.test.js'].map((file) => new URL(`../${file}`, import.meta.url).pathname)
const stream = run({ files, concurrency: 2 })
stream.on('test:fail', () => { process.exitCode = 1 })
stream.on('end', () => rc.close())
stream.compose(spec).pipe(process.stdout)
