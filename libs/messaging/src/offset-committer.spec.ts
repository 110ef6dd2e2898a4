import pino from 'pino';
import { OffsetCommitter, type OffsetSource } from './offset-committer';

type Topics = ReturnType<OffsetSource['uncommittedOffsets']>['topics'];

/** A kafkajs payload whose resolved offsets are `pending` until a commit takes them. */
function source(pending: { topics: Topics }, commits: Topics[], fail?: Error): OffsetSource {
  return {
    uncommittedOffsets: () => ({ topics: pending.topics }),
    commitOffsetsIfNecessary: async (offsets) => {
      if (fail) throw fail;
      commits.push(offsets!.topics);
      pending.topics = [];
    },
  };
}

const resolvedAt = (offset: string): { topics: Topics } => ({
  topics: [{ topic: 't', partitions: [{ partition: 0, offset }] }],
});

describe('OffsetCommitter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('commits the batches of one interval once, after the interval, not per batch', async () => {
    const commits: Topics[] = [];
    const committer = new OffsetCommitter(1_000, pino({ level: 'silent' }));
    const pending = resolvedAt('1');
    for (const offset of ['1', '2', '3']) {
      pending.topics = resolvedAt(offset).topics;
      committer.resolved(source(pending, commits));
    }
    expect(commits).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(999);
    expect(commits).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(commits).toEqual([resolvedAt('3').topics]);
  });

  it('commits the last batch of a burst even if no batch follows', async () => {
    const commits: Topics[] = [];
    const committer = new OffsetCommitter(1_000, pino({ level: 'silent' }));
    committer.resolved(source(resolvedAt('7'), commits));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(commits).toEqual([resolvedAt('7').topics]);
  });

  it('flush commits at once and skips a commit with nothing resolved', async () => {
    const commits: Topics[] = [];
    const committer = new OffsetCommitter(1_000, pino({ level: 'silent' }));
    const pending = resolvedAt('4');
    committer.resolved(source(pending, commits));
    await committer.flush();
    await committer.flush();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(commits).toEqual([resolvedAt('4').topics]);
  });

  it('a failed commit is logged, not thrown, and the next interval commits again', async () => {
    const warn = jest.fn();
    const committer = new OffsetCommitter(1_000, { warn } as unknown as pino.Logger);
    const commits: Topics[] = [];
    const pending = resolvedAt('5');
    committer.resolved(source(pending, commits, new Error('REBALANCE_IN_PROGRESS')));
    await expect(committer.flush()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    committer.resolved(source(pending, commits));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(commits).toEqual([resolvedAt('5').topics]);
  });

  it('a payload that cannot list its offsets is logged from the timer, not thrown', async () => {
    const warn = jest.fn();
    const committer = new OffsetCommitter(1_000, { warn } as unknown as pino.Logger);
    committer.resolved({
      uncommittedOffsets: () => {
        throw new Error('consumer group gone');
      },
      commitOffsetsIfNecessary: async () => undefined,
    });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('commits nothing after close', async () => {
    const commits: Topics[] = [];
    const committer = new OffsetCommitter(1_000, pino({ level: 'silent' }));
    committer.resolved(source(resolvedAt('9'), commits));
    committer.close();
    committer.resolved(source(resolvedAt('10'), commits));
    await committer.flush();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(commits).toEqual([]);
  });
});
