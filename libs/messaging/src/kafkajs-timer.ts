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
 * kafkajs 2.2.4 re-arms its request-queue timer after every check with a negative delay (1 ms), so idle connections
 * burn most of an idle service's CPU (docs/benchmarks.md, kafkajs #1751). This arms it only while a request waits. Call
 * it before creating a client; false means another kafkajs release: check it, then update PATCHED_VERSION.
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
