import type { EventView } from '@payments/contracts';
import { EventFollower } from './event-follower';
import { GatewayUnavailableError, eventsApi } from './events-api';
import { forwardEvent, localSigningSecret, type ForwardResult } from './forwarder';

export interface ListenArgs {
  gatewayUrl: string;
  apiKey: string;
  forwardTo: string;
  /** Only these event types are forwarded; all when empty. */
  events: string[];
  /** Also forward the events created at or after this instant; default: only events after start. */
  since?: Date;
  pollIntervalMs: number;
  forwardTimeoutMs: number;
}

const MAX_BACKOFF_MS = 30_000;

const clock = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

function outcome(r: ForwardResult): string {
  return r.status !== undefined ? `[${r.status}]` : `[error: ${r.error}]`;
}

export function printLine(e: EventView, forwardTo: string, r: ForwardResult): void {
  console.log(`${clock()}  ${e.event.padEnd(24)} ${e.id}  → ${outcome(r)} POST ${forwardTo} (${r.durationMs} ms)`);
}

/** Resolves after `ms`, or at once when `stop` aborts. */
function pause(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    }
    stop.addEventListener('abort', done, { once: true });
  });
}

/**
 * `ops webhooks listen`: follows the business's events and POSTs each to `forwardTo`, signed with
 * the local secret, until `stop` aborts (Ctrl-C). A gateway outage is retried with a capped
 * exponential backoff; a receiver's error is printed and the next event goes on.
 */
export async function listen(args: ListenArgs, stop: AbortSignal): Promise<void> {
  const secret = localSigningSecret(args.apiKey);
  const wanted = new Set(args.events);
  const follower = new EventFollower(
    eventsApi(args.gatewayUrl, args.apiKey, stop),
    args.events.length === 1 ? args.events[0] : undefined,
    (message) => console.error(`${clock()}  warning: ${message}`),
  );
  let failures = 0;
  let ready = false;

  while (!stop.aborted) {
    try {
      if (!ready) {
        if (args.since) follower.startAt(args.since);
        else await follower.skipExisting();
        ready = true;
        console.log(`Ready! Your webhook signing secret is ${secret} (^C to quit)`);
        console.log(`Forwarding ${args.events.length ? args.events.join(', ') : 'all events'} to ${args.forwardTo}`);
      }
      for (const event of await follower.poll()) {
        if (stop.aborted) break;
        if (wanted.size && !wanted.has(event.event)) continue;
        printLine(
          event,
          args.forwardTo,
          await forwardEvent(args.forwardTo, secret, event, args.forwardTimeoutMs, stop),
        );
      }
      if (failures > 0) console.error(`${clock()}  the gateway answers again`);
      failures = 0;
      await pause(args.pollIntervalMs, stop);
    } catch (err) {
      if (stop.aborted) break;
      if (!(err instanceof GatewayUnavailableError)) throw err;
      failures += 1;
      const wait = Math.min(1_000 * 2 ** (failures - 1), MAX_BACKOFF_MS);
      console.error(`${clock()}  ${err.message}; retrying in ${Math.round(wait / 1000)} s`);
      await pause(wait, stop);
    }
  }
}
