import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    globalSetup: ['ringchain/vitest/setup'], // one server for the run; each worker gets its own chain
    maxWorkers: 2,                           // at least two, even on a two-core machine
    testTimeout: 20_000,
  },
})
