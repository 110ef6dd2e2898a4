import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('writes the first item at once and what queued meanwhile together, each caller getting its own result', async () => {
    const groups: number[][] = [];
    let finishFirst!: () => void;
    const gc = new GroupCommit<number, number>(async (items) => {
      groups.push(items);
      if (groups.length === 1) await new Promise<void>((r) => (finishFirst = r));
      return items.map((i) => i * 10);
    }, 2);
    const results = [gc.submit(1), gc.submit(2), gc.submit(3), gc.submit(4)];
    expect(groups).toEqual([[1]]);
    finishFirst();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([[1], [2, 3], [4]]);
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
});
