import { once } from 'node:events';

/**
 * Waits while stdout's buffer is full. Into a pipe (`ops dlq list --limit 0 | less`, a CI log)
 * stdout is asynchronous: a command printing faster than the reader reads would hold all of its
 * output in memory. Long listings call this between pages, so memory stays that of one page.
 */
export async function drained(
  heartbeat?: () => Promise<void>,
  out: NodeJS.WritableStream & { writableNeedDrain?: boolean } = process.stdout,
): Promise<void> {
  while (out.writableNeedDrain) {
    // A reader paused for minutes (less) must not cost the Kafka consumer its group membership.
    const timer = new Promise((resolve) => setTimeout(resolve, 3_000).unref());
    await Promise.race([once(out, 'drain'), timer]);
    await heartbeat?.().catch(() => undefined);
  }
}
