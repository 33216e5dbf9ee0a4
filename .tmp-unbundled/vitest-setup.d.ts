/**
 * ringchain for vitest, the global setup (`ringchain/vitest/setup`): starts one server in isolate
 * mode for the whole run, in vitest's main process, and hands its address to the workers
 * (`project.provide`), where `ringchain/vitest` picks each worker's chain and runs the fixture.
 * Closes it when the run ends.
 *
 * @example
 * // vitest.config.ts: the defaults
 * export default defineConfig({ test: { globalSetup: ['ringchain/vitest/setup'] } })
 * // or a setup file of yours, listed in test.globalSetup instead
 * export default ringchainGlobalSetup({ hardfork: 'cancun', mining: { mode: 'manual' } })
 */
import type { TestProject } from 'vitest/node';
import { type StartOptions } from './simulator.js';
/** A global setup starting ringchain with these options (isolate mode and port 0 unless they say otherwise). */
export declare function ringchainGlobalSetup(options?: StartOptions): (project: TestProject) => Promise<() => Promise<void>>;
/** The global setup with the default options: `globalSetup: ['ringchain/vitest/setup']`. */
declare const _default: (project: TestProject) => Promise<() => Promise<void>>;
export default _default;
