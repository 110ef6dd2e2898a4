import { formatReplayOrigin, parseReplayOrigin, replayTopicGroup, type ReplayOriginFields } from './replay';

/**
 * What services of the previous release accept in a `replay-origin` header: a value they cannot
 * match loses the whole origin.
 */
const READ_BY_PREVIOUS_RELEASE = /^(\S+) (\d{1,15}|-) (-?\d+) (-?\d+) (\S+)$/;

describe('replay-origin header', () => {
  const origin: ReplayOriginFields = {
    run: '0b8f2d7e-5a1c-4c4e-9d0e-1f2a3b4c5d6e',
    seq: 98765,
    partition: 2,
    offset: '123456',
    topic: 'p1.transaction.status_changed',
  };

  it('reads back what it writes', () => {
    expect(formatReplayOrigin(origin)).toBe(
      '0b8f2d7e-5a1c-4c4e-9d0e-1f2a3b4c5d6e 98765 2 123456 p1.transaction.status_changed',
    );
    expect(parseReplayOrigin(formatReplayOrigin(origin))).toEqual(origin);
    expect(parseReplayOrigin(formatReplayOrigin({ ...origin, seq: null, partition: -1, offset: '-1' }))).toEqual({
      ...origin,
      seq: null,
      partition: -1,
      offset: '-1',
    });
  });

  it('writes a partition or offset that is not one as unknown, keeping the run, the topic and the other field', () => {
    // What a dead letter with hand-edited or damaged dlq-original-* headers hands to the copier.
    const badPartition = formatReplayOrigin({ ...origin, partition: Number('zero') });
    const badOffset = formatReplayOrigin({ ...origin, offset: 'twelve' });
    const spaced = formatReplayOrigin({ ...origin, partition: 1.5, offset: '12 13' });
    expect(parseReplayOrigin(badPartition)).toEqual({ ...origin, partition: -1 });
    expect(parseReplayOrigin(badOffset)).toEqual({ ...origin, offset: '-1' });
    expect(parseReplayOrigin(spaced)).toEqual({ ...origin, partition: -1, offset: '-1' });
    expect(parseReplayOrigin(formatReplayOrigin({ ...origin, seq: Number.NaN }))).toEqual({ ...origin, seq: null });
    // Services of the previous release read these values whole too.
    for (const value of [badPartition, badOffset, spaced]) expect(value).toMatch(READ_BY_PREVIOUS_RELEASE);
  });

  it('reads a field it cannot read as unknown and keeps the others', () => {
    expect(parseReplayOrigin('run-1 3 x 12 p1.t')).toEqual({
      run: 'run-1',
      seq: 3,
      partition: -1,
      offset: '12',
      topic: 'p1.t',
    });
    expect(parseReplayOrigin('run-1 3 4 NaN p1.t')).toEqual({
      run: 'run-1',
      seq: 3,
      partition: 4,
      offset: '-1',
      topic: 'p1.t',
    });
    expect(parseReplayOrigin('run-1 - - - p1.t')).toEqual({
      run: 'run-1',
      seq: null,
      partition: -1,
      offset: '-1',
      topic: 'p1.t',
    });
    expect(parseReplayOrigin('run-1 x -7 -3 p1.t')).toEqual({
      run: 'run-1',
      seq: null,
      partition: -1,
      offset: '-1',
      topic: 'p1.t',
    });
    expect(parseReplayOrigin('run-1 3 99999999999 12 p1.t')).toMatchObject({
      partition: -1,
      offset: '12',
      topic: 'p1.t',
    });
  });

  it('is not an origin without its five fields', () => {
    for (const value of ['', 'not an origin', 'run-1 3 4 12', 'run-1 3 4 12 p1.t extra', 'run-1  3 4 12 p1.t'])
      expect(parseReplayOrigin(value)).toBeUndefined();
  });
});

describe('replayTopicGroup', () => {
  it('names the group of a replay topic, and nothing for any other topic', () => {
    expect(replayTopicGroup('replay.split-ledger-service')).toBe('split-ledger-service');
    for (const topic of ['replay.results', 'replay.', 'transaction.status_changed', 'split-ledger-service.dlq'])
      expect(replayTopicGroup(topic)).toBeUndefined();
  });
});
