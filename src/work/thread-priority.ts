// The calling thread at the lowest CPU priority, so that the threads beside it (the main
// thread's event loop) get the cores first. Linux gives each thread its own nice value (its
// id from /proc/thread-self); elsewhere the thread keeps the process's.
import fs from 'node:fs';
import os from 'node:os';

/** Lowers this thread; its id in the kernel (for its CPU time in /proc), or null where it is not known. */
export function lowerThisThread(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    try {
      os.setPriority(tid, os.constants.priority.PRIORITY_LOW);
    } catch {
      // Not allowed: the thread runs at the process's priority.
    }
    return tid;
  } catch {
    // Not Linux: no thread id to lower, or to count the CPU time of.
    return null;
  }
}
