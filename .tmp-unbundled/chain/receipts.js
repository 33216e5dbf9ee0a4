import { generateAddress } from '@ethereumjs/util';
/** Builds the included-transaction records of a freshly mined block. */
export function buildIncluded(block, senders, results) {
    const blockHash = block.hash();
    const number = block.header.number;
    const timestamp = block.header.timestamp;
    const baseFee = block.header.baseFeePerGas;
    const blobGasPrice = block.header.excessBlobGas !== undefined ? block.header.getBlobGasPrice() : undefined;
    const transactions = [];
    const logs = [];
    let previousCumulative = 0n;
    block.transactions.forEach((tx, index) => {
        const result = results[index];
        const from = senders[index];
        const hash = tx.hash();
        const cumulativeGasUsed = result.receipt.cumulativeBlockGasUsed;
        const txLogs = [];
        for (const [address, topics, data] of result.receipt.logs) {
            const log = { address, topics, data, logIndex: logs.length, transactionIndex: index, transactionHash: hash, blockHash, blockNumber: number, blockTimestamp: timestamp };
            txLogs.push(log);
            logs.push(log);
        }
        const receipt = {
            ...('status' in result.receipt ? { status: result.receipt.status } : { root: result.receipt.stateRoot }),
            cumulativeGasUsed,
            gasUsed: cumulativeGasUsed - previousCumulative,
            effectiveGasPrice: effectiveGasPrice(tx, baseFee),
            contractAddress: tx.to === undefined ? generateAddress(from, bigintToNonceBytes(tx.nonce)) : undefined,
            logs: txLogs,
            logsBloom: result.receipt.bitvector,
            ...(result.blobGasUsed !== undefined && blobGasPrice !== undefined ? { blobGasUsed: result.blobGasUsed, blobGasPrice } : {}),
        };
        previousCumulative = cumulativeGasUsed;
        transactions.push({ tx, hash, from, blockHash, blockNumber: number, blockTimestamp: timestamp, index, receipt });
    });
    return { transactions, logs };
}
/** What the sender actually paid per gas: the gas price, or base fee plus the tip it could pay. */
export function effectiveGasPrice(tx, baseFee) {
    if ('maxPriorityFeePerGas' in tx) {
        const base = baseFee ?? 0n;
        const tip = tx.maxFeePerGas - base < tx.maxPriorityFeePerGas ? tx.maxFeePerGas - base : tx.maxPriorityFeePerGas;
        return base + tip;
    }
    return tx.gasPrice;
}
function bigintToNonceBytes(nonce) {
    if (nonce === 0n)
        return new Uint8Array(0);
    let hex = nonce.toString(16);
    if (hex.length % 2 === 1)
        hex = '0' + hex;
    return Uint8Array.from(Buffer.from(hex, 'hex'));
}
//# sourceMappingURL=receipts.js.map