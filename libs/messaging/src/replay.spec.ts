import type { KafkaMessage } from 'kafkajs';
import { encodeReplayBundle, formatBundleHeader, formatReplayOrigin, ReplayHeaders } from '@payments/contracts';
import { ownHeaders, replayEntries, replayOrigin, reportReplayOutcomes } from './replay';

const message = (headers: KafkaMessage['headers']): KafkaMessage =>
  ({ key: null, value: null, timestamp: '0', attributes: 0, offset: '7', headers }) as KafkaMessage;

describe('replayOrigin', () => {
  it('reads the one replay-origin header ops writes', () => {
    const origin = {
      run: '0b8f2d7e-5a1c-4c4e-9d0e-1f2a3b4c5d6e',
      seq: 98765,
      partition: 2,
      offset: '123456',
      topic: 'p1.transaction.status_changed',
    };
    const m = message({
      [ReplayHeaders.Origin]: Buffer.from(formatReplayOrigin(origin)),
      'event-id': Buffer.from('evt_1'),
    });
    expect(replayOrigin('p1.replay.split-ledger-service', m)).toEqual({ ...origin, ranged: true });
  });

  it('reads the five headers of copies made by an earlier ops, and an origin without a sequence number', () => {
    const old = message({
      [ReplayHeaders.Run]: Buffer.from('run-1'),
      [ReplayHeaders.SourceTopic]: Buffer.from('p1.refund.status_changed'),
      [ReplayHeaders.SourcePartition]: Buffer.from('0'),
      [ReplayHeaders.SourceOffset]: Buffer.from('42'),
      [ReplayHeaders.Sequence]: Buffer.from('3'),
    });
    expect(replayOrigin('p1.replay.g', old)).toEqual({
      run: 'run-1',
      topic: 'p1.refund.status_changed',
      partition: 0,
      offset: '42',
      seq: 3,
      ranged: false,
    });
    const noSeq = formatReplayOrigin({ run: 'run-2', seq: null, partition: -1, offset: '-1', topic: 'p1.replay.g' });
    expect(replayOrigin('p1.replay.g', message({ [ReplayHeaders.Origin]: Buffer.from(noSeq) }))).toEqual({
      run: 'run-2',
      seq: null,
      partition: -1,
      offset: '-1',
      topic: 'p1.replay.g',
      ranged: true,
    });
  });

  it('falls back to the replay topic itself for a header it cannot read (no handler then: dead-lettered)', () => {
    expect(
      replayOrigin('p1.replay.g', message({ [ReplayHeaders.Origin]: Buffer.from('not an origin') })),
    ).toMatchObject({ run: 'unknown', topic: 'p1.replay.g', seq: null });
  });

  it('keeps the source topic of a replay-origin header with an unreadable field (a replayed dead letter, say)', () => {
    const m = message({ [ReplayHeaders.Origin]: Buffer.from('run-3 5 NaN 12 p1.transaction.status_changed') });
    expect(replayOrigin('p1.replay.g', m)).toEqual({
      run: 'run-3',
      seq: 5,
      partition: -1,
      offset: '12',
      topic: 'p1.transaction.status_changed',
      ranged: true,
    });
  });

  it('drops the replay headers from what a dead letter keeps as the message’s own', () => {
    expect(Object.keys(ownHeaders({ [ReplayHeaders.Origin]: 'x', 'event-id': 'evt_1' }))).toEqual(['event-id']);
  });
});

describe('replayEntries', () => {
  const run = 'run-b';
  const bundle = (offset: string, seq: number, values: string[], marked = formatBundleHeader(values.length, run)) =>
    ({
      key: null,
      timestamp: '0',
      attributes: 0,
      offset,
      value: encodeReplayBundle(
        values.map((v, i) => ({
          key: Buffer.from(`k${i}`),
          value: Buffer.from(v),
          headers: { 'event-id': Buffer.from(v) },
          offset: String(500 + 2 * i),
        })),
      ),
      headers: {
        [ReplayHeaders.Origin]: Buffer.from(
          formatReplayOrigin({ run, seq, partition: 1, offset: '500', topic: 'p1.t' }),
        ),
        [ReplayHeaders.Bundle]: Buffer.from(marked),
      },
    }) as KafkaMessage;

  it('opens a bundle into its records, each with its source offset and sequence number', () => {
    const single = message({
      [ReplayHeaders.Origin]: Buffer.from(
        formatReplayOrigin({ run, seq: 0, partition: 1, offset: '499', topic: 'p1.t' }),
      ),
    });
    const entries = replayEntries('p1.replay.g', [single, bundle('8', 1, ['a', 'b', 'c'])]);
    expect(
      entries.map((e) => [
        e.message.key?.toString(),
        e.message.value?.toString(),
        e.origin.offset,
        e.origin.seq,
        e.resolves,
      ]),
    ).toEqual([
      [undefined, undefined, '499', 0, '7'],
      ['k0', 'a', '500', 1, undefined],
      ['k1', 'b', '502', 2, undefined],
      ['k2', 'c', '504', 3, '8'],
    ]);
    // The replay topic's offset moves after the bundle's last record only (`resolves`).
    // What a dead letter of a bundled record keeps: its own headers, none of the bundle's.
    expect(ownHeaders(entries[2].message.headers)).toEqual({ 'event-id': Buffer.from('b') });
  });

  it('answers for every record of a bundle it cannot read, once, so the copier hears of each', async () => {
    const damaged = { ...bundle('9', 4, ['a', 'b', 'c']), value: Buffer.from('nonsense') } as KafkaMessage;
    const miscounted = bundle('10', 7, ['a', 'b'], formatBundleHeader(3, run));
    // A whole-bundle dead letter an earlier ops copied again: one record of that ops's run.
    const copiedAgain = bundle('11', 12, ['a', 'b'], formatBundleHeader(2, 'an-earlier-run'));
    const unreadable = ['0 run-b', 'x run-b', '3'].map((marked, i) => bundle(String(12 + i), 13 + i, ['a'], marked));
    const entries = replayEntries('p1.replay.g', [damaged, miscounted, copiedAgain, ...unreadable]);
    expect(entries.map((e) => [e.origin.seq, e.origin.span, e.resolves, e.problem])).toEqual([
      [4, 3, '9', expect.stringMatching(/version/)],
      [7, 3, '10', 'a replay bundle of 3 that holds another count'],
      [12, undefined, '11', 'not a bundle of its run (replay-bundle: 2 an-earlier-run)'],
      [13, undefined, '12', 'not a bundle of its run (replay-bundle: 0 run-b)'],
      [14, undefined, '13', 'not a bundle of its run (replay-bundle: x run-b)'],
      [15, undefined, '14', 'not a bundle of its run (replay-bundle: 3)'],
    ]);
    // Its dead letter keeps the bundle header, so `ops dlq replay` can open it.
    expect(ownHeaders(copiedAgain.headers)).toEqual({ [ReplayHeaders.Bundle]: Buffer.from('2 an-earlier-run') });
    const send = jest.fn(async () => []);
    await reportReplayOutcomes({ send } as unknown as Parameters<typeof reportReplayOutcomes>[0], 'p1.', 'g', [
      { origin: entries[0].origin, outcome: 'dead_lettered' },
      { origin: entries[1].origin, outcome: 'dead_lettered' },
    ]);
    const [[{ messages }]] = send.mock.calls as unknown as [[{ messages: { value: string }[] }]];
    expect(JSON.parse(messages[0].value).ranges).toEqual([[4, 9, 'dead_lettered']]);
  });
});

describe('reportReplayOutcomes', () => {
  const send = jest.fn(async () => []);
  const producer = { send } as unknown as Parameters<typeof reportReplayOutcomes>[0];
  const origin = (seq: number | null, ranged: boolean, run = 'run-1') => ({
    run,
    topic: 'p1.t',
    partition: 0,
    offset: String(seq ?? 0),
    seq,
    ranged,
  });

  it('sends a current ops its outcomes as ranges, one message a run; an earlier ops one message a record', async () => {
    await reportReplayOutcomes(producer, 'p1.', 'g', [
      { origin: origin(10, true), outcome: 'applied' },
      { origin: origin(11, true), outcome: 'applied' },
      { origin: origin(12, true), outcome: 'duplicate' },
      { origin: origin(14, true), outcome: 'duplicate' },
      { origin: origin(3, false, 'old-run'), outcome: 'applied' },
    ]);
    const [[{ topic, messages }]] = send.mock.calls as unknown as [
      [{ topic: string; messages: { key: string; value: string }[] }],
    ];
    expect(topic).toBe('p1.replay.results');
    expect(messages.map((m) => JSON.parse(m.value))).toEqual([
      { run: 'old-run', group: 'g', outcome: 'applied', topic: 'p1.t', partition: 0, offset: '3', seq: 3 },
      {
        run: 'run-1',
        group: 'g',
        ranges: [
          [10, 11, 'applied'],
          [12, 12, 'duplicate'],
          [14, 14, 'duplicate'],
        ],
      },
    ]);
  });
});
