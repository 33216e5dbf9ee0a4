// A small project using ringchain's vitest helper as a user would (run by ../vitest.test.ts):
// the global setup starts one server in isolate mode, each worker gets its own chain.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['*.spec.ts'],
    // What users write as `globalSetup: ['ringchain/vitest/setup']`.
    globalSetup: ['../../../src/vitest-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
  },
})
