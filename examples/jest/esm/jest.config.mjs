export default {
  globalSetup: './test/ringchain-setup.js',        // one server for the run, before the workers start
  globalTeardown: './test/ringchain-teardown.js',
  setupFilesAfterEnv: ['./test/ringchain-each.js'], // in every worker: its own chain, a snapshot per test
  maxWorkers: 2,                                    // at least two, even on a two-core machine
  testTimeout: 20_000,                              // a test may wait for the other worker's file
  workerIdleMemoryLimit: '1GB',                     // also keeps files in workers when jest knows they are fast
  transform: {},                                    // native ES modules, no Babel
}
