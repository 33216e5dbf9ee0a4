// Loaded with `node --expose-gc --import ./bench/gc-probe.mjs` into a ringchain server by the memory
// section of run.mjs (never otherwise): on SIGUSR2 it runs a full garbage collection and prints
// `gc-probe {heapUsed,…}` on stderr, so resident memory is read after a collection and the live
// heap can be reported beside it. Bench-only instrumentation; ringchain itself has no such hook.
process.on('SIGUSR2', () => {
  globalThis.gc?.()
  process.stderr.write(`gc-probe ${JSON.stringify(process.memoryUsage())}\n`)
})
