/**
 * The fork configuration a chain runs under, as EIP-7910 (`eth_config`) describes it: for the
 * current fork, the next scheduled one and the last scheduled one, their activation time, blob
 * schedule, chain id, EIP-2124 fork id, precompiles and system contracts.
 *
 * Owns: reading that from the chain's fork rules (an ethereumjs `Common`) the way geth reads its
 * `ChainConfig`: the same fork order, the same fork-id checksum, the same names.
 * Leaves to others: where the rules come from (`genesis.ts`, `import.ts`), the wire shape
 * (`src/rpc/`).
 *
 * Geth only describes timestamp-scheduled forks (Shanghai and later): before Shanghai there is no
 * current configuration (null), exactly as geth answers.
 */
import { crc32 } from 'node:zlib';
import { Mainnet } from '@ethereumjs/common';
import { getActivePrecompiles } from '@ethereumjs/evm';
import { hexToBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { SYSTEM_CONTRACTS } from './systemContracts.js';
/** geth's timestamp-scheduled forks, in its order (`forks.Fork`), after Paris. */
const TIME_FORKS = ['shanghai', 'cancun', 'prague', 'osaka', 'bpo1', 'bpo2', 'bpo3', 'bpo4', 'bpo5', 'amsterdam'];
/** geth's precompile names (`PrecompiledContract.Name()`), by address. */
const PRECOMPILE_NAMES = {
    '0000000000000000000000000000000000000001': 'ECREC',
    '0000000000000000000000000000000000000002': 'SHA256',
    '0000000000000000000000000000000000000003': 'RIPEMD160',
    '0000000000000000000000000000000000000004': 'ID',
    '0000000000000000000000000000000000000005': 'MODEXP',
    '0000000000000000000000000000000000000006': 'BN254_ADD',
    '0000000000000000000000000000000000000007': 'BN254_MUL',
    '0000000000000000000000000000000000000008': 'BN254_PAIRING',
    '0000000000000000000000000000000000000009': 'BLAKE2F',
    '000000000000000000000000000000000000000a': 'KZG_POINT_EVALUATION',
    '000000000000000000000000000000000000000b': 'BLS12_G1ADD',
    '000000000000000000000000000000000000000c': 'BLS12_G1MSM',
    '000000000000000000000000000000000000000d': 'BLS12_G2ADD',
    '000000000000000000000000000000000000000e': 'BLS12_G2MSM',
    '000000000000000000000000000000000000000f': 'BLS12_PAIRING_CHECK',
    '0000000000000000000000000000000000000010': 'BLS12_MAP_FP_TO_G1',
    '0000000000000000000000000000000000000011': 'BLS12_MAP_FP2_TO_G2',
    '0000000000000000000000000000000000000100': 'P256VERIFY',
};
const SYSTEM_CONTRACT_NAMES = {
    4788: 'BEACON_ROOTS_ADDRESS',
    2935: 'HISTORY_STORAGE_ADDRESS',
    7002: 'WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS',
    7251: 'CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS',
};
/**
 * The EIP-7910 configuration of a chain whose head has timestamp `headTime`, as geth's `eth_config`
 * assembles it: current = the newest timestamp fork active at `headTime`, next = the fork after it
 * in geth's order (undefined if not scheduled), last = the newest scheduled fork (undefined when
 * there is no next).
 */
export function forkConfigs(common, genesis, headTime) {
    const times = activationTimes(common);
    // geth's LatestFork: -1 stands for Paris (or earlier), which has no timestamp and no configuration.
    const latestAt = (time) => {
        let latest = -1;
        TIME_FORKS.forEach((fork, i) => {
            const at = times.get(fork);
            if (at !== undefined && at <= time)
                latest = i;
        });
        return latest;
    };
    const assemble = (index) => {
        const fork = TIME_FORKS[index];
        const time = fork === undefined ? undefined : times.get(fork);
        if (fork === undefined || time === undefined)
            return undefined;
        return configOf(common, genesis, fork, time);
    };
    const current = latestAt(headTime);
    const next = assemble(current + 1);
    return {
        current: assemble(current),
        next,
        last: next === undefined ? undefined : assemble(latestAt(2n ** 64n - 1n)),
    };
}
/** Activation time of each timestamp fork the rules schedule; a fork active from block 0 counts as time 0. */
function activationTimes(common) {
    const times = new Map();
    for (const hf of common.hardforks()) {
        if (!TIME_FORKS.includes(hf.name))
            continue;
        const at = hf.timestamp !== undefined && hf.timestamp !== null ? BigInt(hf.timestamp) : hf.block === 0 ? 0n : undefined;
        if (at !== undefined)
            times.set(hf.name, at);
    }
    return times;
}
function configOf(common, genesis, fork, time) {
    const rules = common.copy();
    rules.setHardfork(fork);
    const precompiles = new Map();
    for (const address of getActivePrecompiles(rules).keys()) {
        precompiles.set(PRECOMPILE_NAMES[address] ?? `0x${address}`, unprefixedHexToBytes(address));
    }
    return {
        activationTime: genesis.timestamp >= time ? 0n : time,
        blobSchedule: blobSchedule(rules),
        chainId: common.chainId(),
        forkId: forkId(common, genesis, time),
        precompiles,
        systemContracts: systemContracts(rules),
    };
}
function blobSchedule(rules) {
    if (!rules.isActivatedEIP(4844))
        return undefined;
    const perBlob = rules.param('blobGasPerBlob');
    const schedule = rules.getBlobGasSchedule();
    return {
        target: Number(schedule.targetBlobGasPerBlock / perBlob),
        max: Number(schedule.maxBlobGasPerBlock / perBlob),
        baseFeeUpdateFraction: Number(schedule.blobGasPriceUpdateFraction),
    };
}
/** geth's ActiveSystemContracts: the beacon-roots contract from Cancun, the Prague contracts and the deposit contract from Prague. */
function systemContracts(rules) {
    const active = new Map();
    for (const contract of SYSTEM_CONTRACTS) {
        const name = SYSTEM_CONTRACT_NAMES[contract.eip];
        if (name !== undefined && rules.gteHardfork(contract.fork))
            active.set(name, hexToBytes(contract.address));
    }
    if (rules.gteHardfork('prague')) {
        // The deposit contract ethereumjs collects EIP-6110 requests from (the genesis's, else mainnet's).
        const configured = rules['_chainParams'].depositContractAddress;
        active.set('DEPOSIT_CONTRACT_ADDRESS', hexToBytes((configured ?? Mainnet.depositContractAddress)));
    }
    return active;
}
/**
 * geth's forkid.NewID(config, genesis, head = max, time): the CRC32 of the genesis hash followed by
 * every block-number fork (all counted, whatever the head) and every timestamp fork up to `time`,
 * each as 8 big-endian bytes, duplicates once, forks at block 0 or at genesis time left out.
 */
function forkId(common, genesis, time) {
    const blocks = new Set();
    const times = new Set();
    for (const hf of common.hardforks()) {
        // Paris is a total-difficulty transition in geth's config, not a fork number.
        if (hf.name === 'paris')
            continue;
        if (hf.timestamp !== undefined && hf.timestamp !== null)
            times.add(BigInt(hf.timestamp));
        else if (hf.block !== null && hf.block !== undefined)
            blocks.add(BigInt(hf.block));
    }
    const sorted = (values) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    let checksum = crc32(genesis.hash);
    for (const block of sorted(blocks))
        if (block > 0n)
            checksum = crc32(uint64(block), checksum);
    for (const at of sorted(times))
        if (at > genesis.timestamp && at <= time)
            checksum = crc32(uint64(at), checksum);
    const id = new Uint8Array(4);
    new DataView(id.buffer).setUint32(0, checksum >>> 0);
    return id;
}
function uint64(value) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, value);
    return bytes;
}
//# sourceMappingURL=forkConfig.js.map