// CPU time of another process's threads, from Linux's /proc/<pid>/task/<tid>/schedstat
// (nanoseconds on CPU, updated whenever the thread is switched out: exact for a process that is
// waiting for its next request). Used by transport.mjs and warmup.mjs.

import { readFileSync, readdirSync } from 'node:fs'

/** Milliseconds on CPU so far of `pid`'s main thread, or of every thread of it. */
export function threadsCpuMs(pid, mainOnly = false) {
  let ns = 0
  for (const task of mainOnly ? [String(pid)] : readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1e6
}
