import { CallbackGate, type Release } from './callback-gate';

/** A promise's state after pending microtasks ran: whether the slot was handed over yet. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('CallbackGate', () => {
  it('runs up to the limit at once, queues up to maxWaiting more in order, and refuses the rest', async () => {
    const gate = new CallbackGate(2, 2);
    const a = await gate.acquire(1)!;
    const b = await gate.acquire(1)!;
    const started: string[] = [];
    const c = gate.acquire(1)!.then((r) => (started.push('c'), r));
    const d = gate.acquire(1)!.then((r) => (started.push('d'), r));
    expect(gate.acquire(1)).toBeNull();
    expect(await settled(c)).toBe(false);

    a();
    const rc: Release = await c;
    expect(started).toEqual(['c']);
    b();
    const rd = await d;
    expect(started).toEqual(['c', 'd']);
    rc();
    rd();
    // Everything released: the full limit is free again and the line is empty.
    const again = [gate.acquire(1)!, gate.acquire(1)!];
    expect(await Promise.all(again.map(settled))).toEqual([true, true]);
  });

  it('keeps callbacks apart, and a second release of the same slot changes nothing', async () => {
    const gate = new CallbackGate(1, 0);
    const one = await gate.acquire(1)!;
    expect(gate.acquire(1)).toBeNull();
    const two = await gate.acquire(2)!;
    one();
    one();
    const three = await gate.acquire(1)!;
    // Had the second release freed another slot, this would not be refused.
    expect(gate.acquire(1)).toBeNull();
    expect(gate.acquire(2)).toBeNull();
    three();
    two();
  });

  it('queues a caller that asks to wait even beyond maxWaiting', async () => {
    const gate = new CallbackGate(1, 0);
    const one = await gate.acquire(1)!;
    expect(gate.acquire(1)).toBeNull();
    const waiting = gate.acquire(1, { queue: true });
    expect(waiting).not.toBeNull();
    expect(await settled(waiting!)).toBe(false);
    one();
    (await waiting!)();
    expect(await settled(gate.acquire(1)!)).toBe(true);
  });

  it('serves attempts claimed already before the others waiting, and says whether any wait', async () => {
    const gate = new CallbackGate(1, 5);
    const one = await gate.acquire(1)!;
    expect(gate.anyWaiting()).toBe(false);
    const order: string[] = [];
    // Each lets go as soon as it has the slot, which passes it on to the next in line.
    const take = (name: string, claimed: boolean) =>
      gate.acquire(1, { claimed })!.then((release) => (order.push(name), release()));
    const later = [
      take('unclaimed-1', false),
      take('claimed-1', true),
      take('unclaimed-2', false),
      take('claimed-2', true),
    ];
    expect(gate.anyWaiting()).toBe(true);
    one();
    await Promise.all(later);
    expect(order).toEqual(['claimed-1', 'claimed-2', 'unclaimed-1', 'unclaimed-2']);
    expect(gate.anyWaiting()).toBe(false);
  });

  it('queues an attempt claimed already even beyond maxWaiting', async () => {
    const gate = new CallbackGate(1, 0);
    const one = await gate.acquire(1)!;
    expect(gate.acquire(1)).toBeNull();
    const claimed = gate.acquire(1, { claimed: true });
    expect(claimed).not.toBeNull();
    one();
    (await claimed!)();
  });
});
