import { startRingchain } from './simulator.js';
/** A global setup starting ringchain with these options (isolate mode and port 0 unless they say otherwise). */
export function ringchainGlobalSetup(options = {}) {
    return async (project) => {
        const running = await startRingchain({ port: 0, isolate: true, ...options });
        const http = new URL(running.httpUrl);
        const ws = new URL(running.wsUrl);
        project.provide('ringchain', {
            httpBase: `${http.origin}/v3/`,
            wsBase: `${ws.origin}/ws/v3/`,
            chainId: Number(running.chain.common.chainId()),
            accounts: running.accounts,
        });
        return () => running.close();
    };
}
/** The global setup with the default options: `globalSetup: ['ringchain/vitest/setup']`. */
export default ringchainGlobalSetup();
//# sourceMappingURL=vitest-setup.js.map