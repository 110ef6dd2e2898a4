import pino from 'pino';
import type { TickResult } from '@payments/platform';
import { relayLoop } from './service-messaging';

describe("the relay's loop as a service runs it", () => {
  const config = { OUTBOX_POLL_INTERVAL_MS: 200, OUTBOX_IDLE_MAX_MS: 1_000, OUTBOX_RELAY_LINGER_MS: 20 };

  /** Tick times (fake ms since start) while each tick answers what `answer` says. */
  async function ticksOf(answer: () => TickResult, run: (worker: { wake(): void }) => Promise<void>) {
    jest.useFakeTimers();
    const at: number[] = [];
    const started = Date.now();
    const worker = relayLoop(
      {
        tick: async () => {
          at.push(Date.now() - started);
          return answer();
        },
      } as never,
      config,
      pino({ level: 'silent' }),
    );
    try {
      worker.start();
      await run(worker);
      await worker.stop();
    } finally {
      jest.useRealTimers();
    }
    return at;
  }

  it('looks every OUTBOX_IDLE_MAX_MS after finding the outbox empty, and every interval otherwise', async () => {
    const idle = await ticksOf(
      () => Infinity,
      () => jest.advanceTimersByTimeAsync(2_500),
    );
    expect(idle).toEqual([0, 1_000, 2_000]);
    const busy = await ticksOf(
      () => false,
      () => jest.advanceTimersByTimeAsync(500),
    );
    expect(busy).toEqual([0, 200, 400]);
  });

  it('a commit wakes an idle relay after the linger, not after its idle sleep', async () => {
    const at = await ticksOf(
      () => Infinity,
      async (worker) => {
        await jest.advanceTimersByTimeAsync(300);
        worker.wake();
        await jest.advanceTimersByTimeAsync(100);
      },
    );
    expect(at).toEqual([0, 320]);
  });
});
