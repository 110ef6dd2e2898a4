import pino from 'pino';
import { PollingWorker } from './polling-worker';

const silent = () => pino({ level: 'silent' });

/** Polls `cond` until it holds or the deadline passes (then fails with `what`). */
async function waitFor(cond: () => boolean, what: string, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('PollingWorker', () => {
  let worker: PollingWorker | undefined;
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  it('waits intervalMs between ticks while tick reports no more work', async () => {
    // Fake clock: a worker that ignored the interval (or polled with 0) would tick early.
    jest.useFakeTimers();
    try {
      let calls = 0;
      const w = new PollingWorker(
        't',
        async () => {
          calls += 1;
          return false;
        },
        1_000,
        silent(),
      );
      w.start();
      await jest.advanceTimersByTimeAsync(0);
      expect(calls).toBe(1);
      await jest.advanceTimersByTimeAsync(999);
      expect(calls).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toBe(2);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(calls).toBe(3);
      await w.stop();
    } finally {
      jest.useRealTimers();
    }
  });

  it('calls tick again at once while it returns true (no interval wait)', async () => {
    // The interval is far longer than the deadline: only the "more work" path can reach 6 calls.
    let calls = 0;
    worker = new PollingWorker(
      't',
      async () => {
        calls += 1;
        return calls <= 5;
      },
      60_000,
      silent(),
    );
    worker.start();
    await waitFor(() => calls === 6, 'six back-to-back ticks', 1_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(6); // after a `false` it waits for the (long) interval
  });

  it('wake() skips the wait', async () => {
    let calls = 0;
    worker = new PollingWorker(
      't',
      async () => {
        calls += 1;
        return false;
      },
      60_000,
      silent(),
    );
    worker.start();
    await waitFor(() => calls === 1, 'first tick');
    await new Promise((r) => setTimeout(r, 5)); // let the loop reach its wait
    worker.wake();
    await waitFor(() => calls === 2, 'tick after wake()', 1_000);
  });

  it('start() twice runs only one loop', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let calls = 0;
    worker = new PollingWorker(
      't',
      async () => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight -= 1;
        calls += 1;
        return calls < 5;
      },
      5,
      silent(),
    );
    worker.start();
    worker.start();
    await waitFor(() => calls >= 5, 'five ticks');
    expect(maxInFlight).toBe(1);
  });

  it('stop() waits for the tick in flight and no tick starts afterwards', async () => {
    const gate = deferred();
    let calls = 0;
    let finished = false;
    worker = new PollingWorker(
      't',
      async () => {
        calls += 1;
        await gate.promise;
        finished = true;
        return true; // would normally ask for another tick at once
      },
      5,
      silent(),
    );
    worker.start();
    await waitFor(() => calls === 1, 'tick to start');

    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(stopped).toBe(false); // still waiting for the tick

    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    expect(stopped).toBe(true);

    await new Promise((r) => setTimeout(r, 15));
    expect(calls).toBe(1);
  });

  it('stop() during the interval wait returns promptly', async () => {
    let calls = 0;
    worker = new PollingWorker(
      't',
      async () => {
        calls += 1;
        return false;
      },
      60_000,
      silent(),
    );
    worker.start();
    await waitFor(() => calls === 1, 'first tick');
    await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(calls).toBe(1);
  });

  it('stop() before start() resolves', async () => {
    worker = new PollingWorker('t', async () => false, 5, silent());
    await expect(worker.stop()).resolves.toBeUndefined();
  });

  it('keeps running after tick throws, and logs the failure', async () => {
    const logger = silent();
    const logged = jest.spyOn(logger, 'error');
    let calls = 0;
    worker = new PollingWorker(
      'outbox',
      async () => {
        calls += 1;
        if (calls <= 2) throw new Error(`boom ${calls}`);
        return false;
      },
      5,
      logger,
    );
    worker.start();
    await waitFor(() => calls >= 4, 'ticks after two failures');
    // First failure is logged; the second (not a multiple of 20) is not.
    expect(logged).toHaveBeenCalledTimes(1);
    const [fields, message] = logged.mock.calls[0] as unknown as [Record<string, unknown>, string];
    expect(fields).toMatchObject({ worker: 'outbox', failures: 1 });
    expect((fields.err as Error).message).toBe('boom 1');
    expect(message).toContain('outbox');
  });

  it('survives a rejected promise as well as a synchronous throw', async () => {
    let calls = 0;
    worker = new PollingWorker(
      't',
      (() => {
        calls += 1;
        if (calls === 1) throw new Error('sync');
        if (calls === 2) return Promise.reject(new Error('async'));
        return Promise.resolve(false);
      }) as () => Promise<boolean>,
      5,
      silent(),
    );
    worker.start();
    await waitFor(() => calls >= 3, 'a tick after both kinds of failure');
  });

  it('sleeps until the work a tick knows of is due, at least the interval and at most idleMaxMs', async () => {
    jest.useFakeTimers();
    try {
      const at: number[] = [];
      const answers: number[] = [350, 10, Infinity, Infinity];
      const started = Date.now();
      const w = new PollingWorker(
        't',
        async () => {
          at.push(Date.now() - started);
          return answers.shift() ?? Infinity;
        },
        100,
        silent(),
        1_000,
      );
      w.start();
      await jest.advanceTimersByTimeAsync(3_000);
      await w.stop();
      // Due in 350 ms: then. Due in 10 ms: the interval. Nothing known: idleMaxMs.
      expect(at.slice(0, 5)).toEqual([0, 350, 450, 1_450, 2_450]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('hurry() ends a long wait at the interval, also when it came during the tick', async () => {
    jest.useFakeTimers();
    try {
      const at: number[] = [];
      const started = Date.now();
      let hurryDuringTick = false;
      const w: PollingWorker = new PollingWorker(
        't',
        async () => {
          at.push(Date.now() - started);
          if (hurryDuringTick) {
            hurryDuringTick = false;
            w.hurry();
          }
          return Infinity;
        },
        100,
        silent(),
        1_000,
      );
      w.start();
      await jest.advanceTimersByTimeAsync(500);
      w.hurry(); // 500 ms into a 1 s wait: the next tick comes 100 ms from now, not at 1 000
      await jest.advanceTimersByTimeAsync(100);
      expect(at).toEqual([0, 600]);
      hurryDuringTick = true; // the tick at 1 600 hurries itself: the wait after it is the interval
      await jest.advanceTimersByTimeAsync(1_000);
      await jest.advanceTimersByTimeAsync(100);
      expect(at).toEqual([0, 600, 1_600, 1_700]);
      w.hurry(); // a wait no longer than the interval is left alone
      await w.stop();
    } finally {
      jest.useRealTimers();
    }
  });

  it('with lingerMs, a wake ends the wait that long after the first wake, so later wakes share the tick', async () => {
    jest.useFakeTimers();
    try {
      const at: number[] = [];
      const started = Date.now();
      let wakeDuringTick = false;
      let slowTick = 0;
      const w: PollingWorker = new PollingWorker(
        't',
        async () => {
          at.push(Date.now() - started);
          if (wakeDuringTick) {
            wakeDuringTick = false;
            w.wake();
          }
          if (slowTick) await new Promise((r) => setTimeout(r, slowTick));
          return false;
        },
        1_000,
        silent(),
        1_000,
        20,
      );
      w.start();
      await jest.advanceTimersByTimeAsync(100);
      w.wake(); // at 100: the tick comes at 120, not at once
      await jest.advanceTimersByTimeAsync(10);
      w.wake(); // at 110: gathered into the same tick, which does not move
      await jest.advanceTimersByTimeAsync(9);
      expect(at).toEqual([0]);
      await jest.advanceTimersByTimeAsync(1);
      expect(at).toEqual([0, 120]);
      // A wake during a tick: the next tick starts 20 ms after that wake, or at once if the tick took longer.
      wakeDuringTick = true;
      await jest.advanceTimersByTimeAsync(1_000);
      expect(at).toEqual([0, 120, 1_120]);
      await jest.advanceTimersByTimeAsync(20);
      expect(at).toEqual([0, 120, 1_120, 1_140]);
      wakeDuringTick = true;
      slowTick = 50; // the tick at 2 140 wakes itself and ends at 2 190: its wake is 50 ms old, so the next is at once
      await jest.advanceTimersByTimeAsync(1_050);
      expect(at).toEqual([0, 120, 1_120, 1_140, 2_140, 2_190]);
      await jest.advanceTimersByTimeAsync(50); // the tick at 2 190 ends at 2 240, and its wait begins
      slowTick = 0;
      w.wake(); // a wake is lingering when stop() comes: stop() does not wait for it, and no tick follows
      await w.stop();
      expect(at).toEqual([0, 120, 1_120, 1_140, 2_140, 2_190]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('without lingerMs, a wake during a tick starts the next one at once', async () => {
    jest.useFakeTimers();
    try {
      const at: number[] = [];
      const started = Date.now();
      let wakes = 1;
      const w: PollingWorker = new PollingWorker(
        't',
        async () => {
          at.push(Date.now() - started);
          if (wakes-- > 0) w.wake();
          return false;
        },
        1_000,
        silent(),
      );
      w.start();
      await jest.advanceTimersByTimeAsync(0);
      expect(at).toEqual([0, 0]);
      await w.stop();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a wake during the back-off after a failure ends it: at once without a linger, after it with one', async () => {
    jest.useFakeTimers();
    try {
      for (const linger of [0, 30]) {
        const at: number[] = [];
        const started = Date.now();
        const w = new PollingWorker(
          't',
          async () => {
            at.push(Date.now() - started);
            if (at.length === 1) throw new Error('down');
            return false;
          },
          100,
          silent(),
          100,
          linger,
        );
        w.start();
        await jest.advanceTimersByTimeAsync(50); // backing off 200 ms after the failure at 0
        w.wake();
        await jest.advanceTimersByTimeAsync(linger);
        expect(at).toEqual([0, 50 + linger]);
        await w.stop();
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it('hurry() during a failing tick shortens its back-off to the interval', async () => {
    jest.useFakeTimers();
    try {
      const at: number[] = [];
      const started = Date.now();
      const w: PollingWorker = new PollingWorker(
        't',
        async () => {
          at.push(Date.now() - started);
          if (at.length === 1) {
            w.hurry();
            throw new Error('down');
          }
          return false;
        },
        50,
        silent(),
        1_000,
        20,
      );
      w.start();
      await jest.advanceTimersByTimeAsync(50); // the back-off would be 100 ms; hurried, it is the interval
      expect(at).toEqual([0, 50]);
      await w.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
