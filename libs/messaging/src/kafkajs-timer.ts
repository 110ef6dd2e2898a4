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
 * kafkajs 2.2.4 arms its pending-request timer with `throttledUntil - Date.now()`, a large negative
 * number unless a broker throttled the client (throttledUntil starts at -1), and Node 24 warns
 * (TimeoutNegativeWarning) for every such timer: kafkajs issue #1751, not fixed upstream. This
 * arms the same timer with the delay Node used to clamp it to (1 ms), so nothing warns and the
 * queue behaves as before. Any process that creates a kafkajs client calls it first; it returns
 * whether the correction is in place (false for another kafkajs release: check it, then update
 * PATCHED_VERSION).
 */
export function fixKafkajsNegativeTimer(): boolean {
  const load = createRequire(require.resolve('kafkajs'));
  if ((load('./package.json') as { version: string }).version !== PATCHED_VERSION) return false;
  if (applied) return true;
  const queue = (load('./src/network/requestQueue') as { prototype: RequestQueue }).prototype;
  queue.scheduleCheckPendingRequests = function (this: RequestQueue) {
    if (this.throttleCheckTimeoutId) return;
    const throttled = this.throttledUntil - Date.now();
    const wait = throttled > 0 ? throttled : this.pending.length > 0 ? CHECK_PENDING_REQUESTS_INTERVAL : 1;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, wait);
  };
  applied = true;
  return true;
}
