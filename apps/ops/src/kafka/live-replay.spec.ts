import { RefusedError } from '../cli/errors';
import { resumeOrPlan } from './live-replay';
import type { CopyRange, ReplayCheckpoint } from './replay-checkpoint';
import type { PlanRow } from './replay-plan';

const EARLIEST = JSON.stringify({ kind: 'earliest', partition: null });
const SHIFT = JSON.stringify({ kind: 'shift', by: -100, partition: null });

const row = (partition: number, target: number, current: number): PlanRow => ({
  topic: 't',
  partition,
  committed: current,
  current,
  target,
  again: current - target,
  skipped: 0,
});
const pending = (ranges: CopyRange[]) =>
  ({ group: 'g', load: async () => new Map(ranges.map((r) => [r.partition, r])) }) as unknown as ReplayCheckpoint;

describe('resumeOrPlan', () => {
  it('plans the whole range when nothing is pending', async () => {
    const { copies, copiedBefore } = await resumeOrPlan(pending([]), [row(0, 10, 50)], EARLIEST);
    expect(copiedBefore).toBe(0);
    expect(copies).toEqual([
      { topic: 't', ranges: [{ partition: 0, from: 10, to: 50, whole: { from: 10, end: 50 } }] },
    ]);
  });

  it('continues an interrupted replay of the same command even when retention moved the earliest offset', async () => {
    const saved = pending([{ partition: 0, from: 10, end: 50, next: 30, spec: EARLIEST }]);
    const { copies, copiedBefore } = await resumeOrPlan(saved, [row(0, 20, 70)], EARLIEST);
    expect(copiedBefore).toBe(20);
    // Up to the end first planned: what the group consumed since was applied normally.
    expect(copies[0].ranges).toEqual([{ partition: 0, from: 30, to: 50, whole: { from: 10, end: 50 } }]);
  });

  it('continues a --shift-by replay after the group consumed on', async () => {
    const saved = pending([{ partition: 0, from: 100, end: 200, next: 150, spec: SHIFT }]);
    expect((await resumeOrPlan(saved, [row(0, 140, 240)], SHIFT)).copies[0].ranges[0]).toMatchObject({
      from: 150,
      to: 200,
    });
  });

  it('refuses to mix a pending replay of another range with a new one', async () => {
    const saved = pending([{ partition: 0, from: 10, end: 50, next: 30, spec: EARLIEST }]);
    await expect(resumeOrPlan(saved, [row(0, 40, 50)], SHIFT)).rejects.toThrow(RefusedError);
    await expect(resumeOrPlan(saved, [row(0, 40, 50)], SHIFT)).rejects.toThrow(
      /copied t partition 0 from offset 10, not 40: .*--restart/,
    );
  });

  it('continues a replay recorded without its command (older ops) when its start is the same', async () => {
    const saved = pending([{ partition: 0, from: 10, end: 50, next: 45, spec: null }]);
    expect((await resumeOrPlan(saved, [row(0, 10, 60)], EARLIEST)).copiedBefore).toBe(35);
  });
});
