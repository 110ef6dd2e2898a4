import { createRequire } from 'node:module';

/** The kafkajs release whose request queue this corrects; another release must be checked again. */
const PATCHED_VERSION = '2.2.4';
/** kafkajs' own wait before looking at pending requests again (requestQueue CHECK_PENDING_REQUESTS_INTERVAL). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

interface InFlightRequest {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}

interface RequestQueue {
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  pending: unknown[];
  inflight: Map<number, InFlightRequest>;
  enforceRequestTimeout: boolean;
  /** kafkajs' name; here a one-off timer for the first in-flight request's deadline, not an interval. */
  requestTimeoutIntervalId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  sendSocketRequest(request: InFlightRequest): void;
  destroy(): void;
}

/** The queues whose connection is up, timeouts enforced: when each one's armed check fires (Infinity: none armed). */
const timeoutChecks = new WeakMap<RequestQueue, { at: number }>();

let applied = false;

/**
 * Two timers of kafkajs 2.2.4's request queue, one per connection, that wake an idle service:
 * - it re-arms its pending-request check after every check with a negative delay (1 ms), so idle connections burn most
 *   of an idle service's CPU (docs/benchmarks.md, twelfth round; kafkajs #1751). This arms it only while a request
 *   waits.
 * - it checks its in-flight requests' timeouts every 100 ms for as long as the connection is up, whether or not a
 *   request is in flight (twenty-third round). This arms one timer for the first in-flight request's deadline instead;
 *   a request still times out at its deadline, as kafkajs' check would find it.
 * Call it before creating a client; false means another kafkajs release: check it, then update PATCHED_VERSION.
 */
export function fixKafkajsTimers(): boolean {
  const load = createRequire(require.resolve('kafkajs'));
  if ((load('./package.json') as { version: string }).version !== PATCHED_VERSION) return false;
  if (applied) return true;
  const queue = (load('./src/network/requestQueue') as { prototype: RequestQueue }).prototype;
  const { destroy, sendSocketRequest } = queue;
  // The request-timeout check, from the connection's connect (kafkajs calls this) until destroy.
  queue.scheduleRequestTimeoutCheck = function (this: RequestQueue) {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    timeoutChecks.set(this, { at: Infinity });
    armTimeoutCheck(this);
  };
  queue.destroy = function (this: RequestQueue) {
    destroy.call(this);
    timeoutChecks.delete(this);
  };
  queue.sendSocketRequest = function (this: RequestQueue, request: InFlightRequest) {
    // Armed even if the send throws with the request in flight, as kafkajs' interval would still see it.
    try {
      sendSocketRequest.call(this, request);
    } finally {
      armTimeoutCheck(this);
    }
  };
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

/** Arms the queue's timeout check for its first in-flight request's deadline, unless one is armed for sooner. */
function armTimeoutCheck(queue: RequestQueue): void {
  const check = timeoutChecks.get(queue);
  if (!check) return;
  let first = Infinity;
  for (const request of queue.inflight.values()) first = Math.min(first, request.sentAt + request.requestTimeout);
  if (first === Infinity || (queue.requestTimeoutIntervalId && check.at <= first)) return;
  clearTimeout(queue.requestTimeoutIntervalId ?? undefined);
  check.at = first;
  // kafkajs' check times a request out once strictly more than its timeout has passed.
  queue.requestTimeoutIntervalId = setTimeout(
    () => {
      queue.requestTimeoutIntervalId = null;
      check.at = Infinity;
      const now = Date.now();
      try {
        for (const request of [...queue.inflight.values()])
          if (now - request.sentAt > request.requestTimeout) request.timeoutRequest();
      } finally {
        armTimeoutCheck(queue);
      }
    },
    Math.max(1, first + 1 - Date.now()),
  );
}
