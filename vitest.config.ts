import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/peers.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The servers tests start do not warm themselves up (src/warmup/): its seconds of CPU would
    // land in other tests. test/warmup/ turns it on where it is the subject.
    env: { RINGCHAIN_WARMUP: 'off' },
  },
})
