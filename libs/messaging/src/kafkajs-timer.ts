import { createRequire } from 'node:module';

/** The kafkajs release whose request queue this corrects; another release must be checked again. */
const PATCHED_VERSION = '2.2.4';
/** kafkajs' own wait before looking at pending requests again (requestQueue CHECK_PENDING_REQUESTS_INTERVAL). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

interface RequestQueue {
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  pending: unknown[];
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

let applied = false;

/**
 * kafkajs 2.2.4's request queue (one per broker connection) re-arms its pending-request timer at
 * the end of every check, with `throttledUntil - Date.now()` as the delay: a large negative number
 * unless a broker throttled the client (throttledUntil starts at -1). Node clamps that to 1 ms, so
 * once a connection has answered one request its queue checks an empty list a thousand times a
 * second for as long as the process lives: most of an idle service's CPU (docs/benchmarks.md,
 * twelfth round). Node 24 also warns for each such timer (TimeoutNegativeWarning, kafkajs issue
 * #1751, not fixed upstream). This arms the timer only when a request waits: after a broker's
 * throttle ends, or kafkajs' 10 ms while the in-flight limit holds requests back. With nothing
 * pending there is nothing to check: push() arms it again when a request has to wait, and each
 * answer checks the queue itself. Any process that creates a kafkajs client calls this first; it
 * returns whether the correction is in place (false for another kafkajs release: check it, then
 * update PATCHED_VERSION).
 */
export function fixKafkajsNegativeTimer(): boolean {
  const load = createRequire(require.resolve('kafkajs'));
  if ((load('./package.json') as { version: string }).version !== PATCHED_VERSION) return false;
  if (applied) return true;
  const queue = (load('./src/network/requestQueue') as { prototype: RequestQueue }).prototype;
  queue.scheduleCheckPendingRequests = function (this: RequestQueue) {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttled = this.throttledUntil - Date.now();
    const wait = throttled > 0 ? throttled : CHECK_PENDING_REQUESTS_INTERVAL;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, wait);
  };
  applied = true;
  return true;
}
