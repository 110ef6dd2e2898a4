import { GroupCommit, RUN_ALONE } from './group-commit';

/** A write whose statements stay in flight until the test lets them finish, one by one. */
function heldWrite<I, O>(answer: (items: I[]) => (O | typeof RUN_ALONE)[] | Error) {
  const groups: I[][] = [];
  const release: (() => void)[] = [];
  const write = async (items: I[]) => {
    groups.push(items);
    await new Promise<void>((r) => release.push(r));
    const out = answer(items);
    if (out instanceof Error) throw out;
    return out;
  };
  const finishNext = async () => {
    await until(() => release.length > 0);
    release.shift()!();
  };
  return { groups, write, finishNext };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !cond(); i += 1) await new Promise((r) => setImmediate(r));
  if (!cond()) throw new Error('condition not reached');
}

/** An error as pg raises it, with its SQLSTATE. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

const connectionLost = () => Object.assign(new Error('Connection terminated unexpectedly'), { outcomeUnknown: true });

describe('GroupCommit', () => {
  it('does not put into a group an item whose caller gave up while it queued: it fails as not written', async () => {
    const { groups, write, finishNext } = heldWrite<{ n: number; deadline?: number }, number>((items) =>
      items.map((i) => i.n),
    );
    const gc = new GroupCommit(write, { deadline: (item) => item.deadline });
    const first = gc.submit({ n: 1 });
    const late = gc.submit({ n: 2, deadline: Date.now() - 1 });
    const waiting = gc.submit({ n: 3, deadline: Date.now() + 60_000 });
    await finishNext();
    await expect(first).resolves.toBe(1);
    await expect(late).rejects.toMatchObject({ name: 'DeadlineExceededError', deadlineExceeded: true });
    await finishNext();
    await expect(waiting).resolves.toBe(3);
    expect(groups).toEqual([[{ n: 1 }], [{ n: 3, deadline: expect.any(Number) }]]);
  });

  it('writes the first item at once and what queued meanwhile together, each caller gets its own result', async () => {
    const groups: number[][] = [];
    let finishFirst!: () => void;
    const gc = new GroupCommit<number, number>(
      async (items) => {
        groups.push(items);
        if (groups.length === 1) await new Promise<void>((r) => (finishFirst = r));
        return items.map((i) => i * 10);
      },
      { max: 2 },
    );
    const results = [gc.submit(1), gc.submit(2), gc.submit(3), gc.submit(4)];
    expect(groups).toEqual([[1]]);
    finishFirst();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([[1], [2, 3], [4]]);
  });

  it('with gather, items submitted in the same turn of the event loop share the first statement', async () => {
    const groups: number[][] = [];
    const gc = new GroupCommit<number, number>(
      async (items) => {
        groups.push(items);
        return items.map((i) => i * 10);
      },
      { gather: true, max: 3 },
    );
    // Submitted from one turn, as a consumer transaction's after-commit hands several deliveries over at once.
    const results = [gc.submit(1), Promise.resolve().then(() => gc.submit(2)), gc.submit(3), gc.submit(4)];
    expect(groups).toEqual([]);
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([[1, 3, 4], [2]]);
    // A later turn's item goes in a statement of its own: nothing waits beyond the turn.
    await expect(gc.submit(5)).resolves.toBe(50);
    expect(groups).toEqual([[1, 3, 4], [2], [5]]);
  });

  it('with gather, what a later turn submits while a statement runs goes in the next one', async () => {
    const { groups, write, finishNext } = heldWrite<number, number>((items) => items.map((i) => i * 10));
    const gc = new GroupCommit(write, { gather: true });
    const first = [gc.submit(1), gc.submit(2)];
    await new Promise((r) => setImmediate(r));
    expect(groups).toEqual([[1, 2]]); // in flight
    const later = [gc.submit(3), gc.submit(4)];
    await new Promise((r) => setImmediate(r));
    expect(groups).toEqual([[1, 2]]); // the turn ended, but a statement is in flight: they wait for it
    await finishNext();
    await finishNext();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('fails only the callers of the statement that failed, and keeps going', async () => {
    let calls = 0;
    const gc = new GroupCommit<string, string>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
      return items;
    });
    const first = gc.submit('a');
    const second = gc.submit('b');
    await expect(first).rejects.toThrow('database down');
    await expect(second).resolves.toBe('b');
  });

  it('keeps up to inFlight statements running; a group forms only once they all are', async () => {
    const w = heldWrite<number, number>((items) => items);
    const gc = new GroupCommit<number, number>(w.write, { inFlight: 3 });
    const results = [1, 2, 3, 4, 5, 6].map((i) => gc.submit(i));
    // Three lone callers went out at once; the others wait for a free slot and then go together.
    expect(w.groups).toEqual([[1], [2], [3]]);
    await w.finishNext();
    await until(() => w.groups.length === 4);
    expect(w.groups[3]).toEqual([4, 5, 6]);
    for (let i = 0; i < 3; i += 1) await w.finishNext();
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('runs alone each item the group statement left unsettled, in the order answered', async () => {
    const alone: string[] = [];
    const w = heldWrite<string, string>((items) => items.map((i) => (i.startsWith('dup') ? RUN_ALONE : `ok:${i}`)));
    const gc = new GroupCommit<string, string>(w.write, {
      alone: async (item) => {
        alone.push(item);
        throw new Error(`duplicate ${item}`);
      },
    });
    const first = gc.submit('a');
    const rest = [gc.submit('b'), gc.submit('dup-1'), gc.submit('c')];
    await w.finishNext();
    await expect(first).resolves.toBe('ok:a');
    await w.finishNext();
    await expect(rest[0]).resolves.toBe('ok:b');
    await expect(rest[1]).rejects.toThrow('duplicate dup-1');
    await expect(rest[2]).resolves.toBe('ok:c');
    expect(alone).toEqual(['dup-1']);
  });

  it('after a failed group runs every item alone, so one bad item fails only its own caller', async () => {
    const w = heldWrite<number, number>((items) =>
      items.includes(-1) && items.length > 1 ? pgError('23514', 'violates check constraint') : items,
    );
    const gc = new GroupCommit<number, number>(w.write, {
      alone: async (item) => {
        if (item < 0) throw new Error(`check constraint on ${item}`);
        return item * 100;
      },
    });
    const first = gc.submit(0);
    const rest = [gc.submit(1), gc.submit(-1), gc.submit(2)];
    await w.finishNext();
    await w.finishNext();
    await expect(first).resolves.toBe(0);
    await expect(rest[0]).resolves.toBe(100);
    await expect(rest[1]).rejects.toThrow('check constraint on -1');
    await expect(rest[2]).resolves.toBe(200);
  });

  it.each([
    ['a data exception', '22003'],
    ['a unique violation', '23505'],
    ['a deadlock (rolled back; the rows alone would not have met it)', '40P01'],
    ['a serialization failure', '40001'],
  ])('runs the items of a group that failed with %s alone, side by side, after freeing the slot', async (_, code) => {
    const started: number[] = [];
    const finishAlone: (() => void)[] = [];
    const w = heldWrite<number, number>((items) => (items.length > 1 ? pgError(code, 'row error') : items));
    const gc = new GroupCommit<number, number>(w.write, {
      alone: async (item) => {
        started.push(item);
        await new Promise<void>((r) => finishAlone.push(r));
        return item;
      },
    });
    const all = [0, 1, 2, 3].map((i) => gc.submit(i));
    await w.finishNext();
    await w.finishNext();
    // All three started before any finished, and the slot is free for the next caller meanwhile.
    await until(() => started.length === 3);
    expect(started).toEqual([1, 2, 3]);
    const next = gc.submit(4);
    expect(w.groups).toEqual([[0], [1, 2, 3], [4]]);
    await w.finishNext();
    await expect(next).resolves.toBe(4);
    for (const f of finishAlone) f();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3]);
  });

  it.each([
    ['cancelled by statement_timeout', '57014'],
    ['lock not available', '55P03'],
    ['no SQLSTATE', undefined],
  ])('gives every caller of a group that failed with %s that error and runs none alone', async (_, code) => {
    const alone = jest.fn(async (i: number) => i);
    const w = heldWrite<number, number>((items) =>
      items.length > 1 ? Object.assign(new Error('statement failed'), { code }) : items,
    );
    const gc = new GroupCommit<number, number>(w.write, { alone });
    const first = gc.submit(0);
    const rest = [gc.submit(1), gc.submit(2), gc.submit(3)];
    await w.finishNext();
    await w.finishNext();
    await expect(first).resolves.toBe(0);
    for (const r of rest) await expect(r).rejects.toMatchObject({ message: 'statement failed', code });
    expect(alone).not.toHaveBeenCalled();
  });

  it('treats an isolate that throws as "do not isolate": every caller gets the error, none hangs', async () => {
    const alone = jest.fn(async (i: number) => i);
    const w = heldWrite<number, number>((items) => (items.length > 1 ? pgError('23505', 'duplicate') : items));
    const gc = new GroupCommit<number, number>(w.write, {
      alone,
      isolate: () => {
        throw new Error('isolate broke');
      },
    });
    const first = gc.submit(0);
    const rest = [gc.submit(1), gc.submit(2)];
    await w.finishNext();
    await w.finishNext();
    await expect(first).resolves.toBe(0);
    for (const r of rest) await expect(r).rejects.toMatchObject({ code: '23505' });
    expect(alone).not.toHaveBeenCalled();
    // The slot was freed: the next caller's write goes out.
    const next = gc.submit(3);
    await w.finishNext();
    await expect(next).resolves.toBe(3);
  });

  it('gives every caller of a group the connection error; none is retried (the outcome is unknown)', async () => {
    const alone = jest.fn(async (i: number) => i);
    const w = heldWrite<number, number>((items) => (items.length > 1 ? connectionLost() : items));
    const gc = new GroupCommit<number, number>(w.write, { alone });
    const first = gc.submit(0);
    const rest = [gc.submit(1), gc.submit(2)];
    await w.finishNext();
    await w.finishNext();
    await expect(first).resolves.toBe(0);
    for (const r of rest) await expect(r).rejects.toMatchObject({ outcomeUnknown: true });
    expect(alone).not.toHaveBeenCalled();
  });

  it('fails every item of a group whose write returned the wrong count; none runs alone (it committed)', async () => {
    const alone = jest.fn(async (i: number) => i);
    const w = heldWrite<number, number>((items) => (items.length > 1 ? items.slice(1) : items));
    const gc = new GroupCommit<number, number>(w.write, { alone });
    const first = gc.submit(1);
    const rest = [gc.submit(2), gc.submit(3)];
    await w.finishNext();
    await expect(first).resolves.toBe(1);
    await w.finishNext();
    expect(w.groups).toEqual([[1], [2, 3]]);
    for (const r of rest) await expect(r).rejects.toThrow('group write answered 1 results for 2 items');
    expect(alone).not.toHaveBeenCalled();
  });

  it('refuses a bound below one', () => {
    expect(() => new GroupCommit<number, number>(async (i) => i, { inFlight: 0 })).toThrow('at least 1');
  });
});
