import { CallbackGate, type Release } from './callback-gate';

describe('CallbackGate', () => {
  it('runs up to the limit at once, queues up to maxWaiting more in order, and refuses the rest', async () => {
    const gate = new CallbackGate(2, 2);
    const a = await gate.acquire(1)!;
    const b = await gate.acquire(1)!;
    const started: string[] = [];
    const c = gate.acquire(1)!.then((r) => (started.push('c'), r));
    const d = gate.acquire(1)!.then((r) => (started.push('d'), r));
    expect(gate.acquire(1)).toBeNull();
    expect(gate.usage(1)).toEqual({ active: 2, waiting: 2 });

    a();
    const rc: Release = await c;
    expect(started).toEqual(['c']);
    expect(gate.usage(1)).toEqual({ active: 2, waiting: 1 });
    b();
    const rd = await d;
    expect(started).toEqual(['c', 'd']);
    rc();
    rd();
    expect(gate.usage(1)).toEqual({ active: 0, waiting: 0 });
  });

  it('keeps callbacks apart, and a second release of the same slot changes nothing', async () => {
    const gate = new CallbackGate(1, 0);
    const one = await gate.acquire(1)!;
    expect(gate.acquire(1)).toBeNull();
    const two = await gate.acquire(2)!;
    one();
    one();
    expect(gate.usage(1)).toEqual({ active: 0, waiting: 0 });
    expect(gate.usage(2)).toEqual({ active: 1, waiting: 0 });
    two();
  });

  it('queues a caller that asks to wait even beyond maxWaiting', async () => {
    const gate = new CallbackGate(1, 0);
    const one = await gate.acquire(1)!;
    expect(gate.acquire(1)).toBeNull();
    const waiting = gate.acquire(1, { queue: true });
    expect(waiting).not.toBeNull();
    expect(gate.usage(1)).toEqual({ active: 1, waiting: 1 });
    one();
    (await waiting!)();
    expect(gate.usage(1)).toEqual({ active: 0, waiting: 0 });
  });
});
