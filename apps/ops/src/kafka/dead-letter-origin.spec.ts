import type { KafkaMessage } from 'kafkajs';
import { encodeReplayBundle, formatBundleHeader } from '@payments/contracts';
import { letterOrigin, letterRecords } from './dead-letter-origin';

const letter = (headers: Record<string, string>): KafkaMessage =>
  ({
    key: null,
    value: null,
    timestamp: '0',
    attributes: 0,
    offset: '0',
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)])),
  }) as KafkaMessage;
const base = (topic: string) => (topic.startsWith('p1.') ? topic.slice(3) : topic);
const dlq = (topic: string, partition = '-1', offset = '-1') => ({
  'dlq-reason': 'no handler',
  'dlq-original-topic': topic,
  'dlq-original-partition': partition,
  'dlq-original-offset': offset,
});

describe('letterOrigin: where ops dlq replay sends a dead letter back as coming from', () => {
  it('is the letter’s dlq-original-* headers for a letter of a source topic', () => {
    expect(letterOrigin(letter(dlq('p1.transaction.status_changed', '2', '41')), base)).toEqual({
      topic: 'p1.transaction.status_changed',
      partition: '2',
      offset: '41',
    });
    // A replay-origin header on such a letter changes nothing: the letter's own topic has a handler.
    const both = letter({
      ...dlq('p1.transaction.status_changed', '2', '41'),
      'replay-origin': 'run-1 3 0 7 p1.refund.status_changed',
    });
    expect(letterOrigin(both, base)).toEqual({ topic: 'p1.transaction.status_changed', partition: '2', offset: '41' });
    expect(letterOrigin(letter({ 'dlq-reason': 'x' }), base)).toEqual({
      topic: undefined,
      partition: undefined,
      offset: undefined,
    });
  });

  it('is the replay-origin header of a letter an earlier service dead-lettered as coming from the replay topic', () => {
    const m = letter({
      ...dlq('p1.replay.split-ledger-service'),
      'replay-origin': '0b8f2d7e-5a1c-4c4e-9d0e-1f2a3b4c5d6e 12 1 3 p1.transaction.status_changed',
      'x-trace': 't',
    });
    expect(letterOrigin(m, base)).toEqual({
      topic: 'p1.transaction.status_changed',
      partition: '1',
      offset: '3',
      replayTopic: 'p1.replay.split-ledger-service',
    });
    // Without a prefix too, and with a field of the header that cannot be read: only that one is lost.
    const damaged = letter({
      ...dlq('replay.webhook-dispatcher'),
      'replay-origin': 'run-2 - x 3 refund.status_changed',
    });
    expect(letterOrigin(damaged, (t) => t)).toEqual({
      topic: 'refund.status_changed',
      partition: '-1',
      offset: '3',
      replayTopic: 'replay.webhook-dispatcher',
    });
  });

  it('stays what the letter says when the header is missing, unreadable or names a replay topic again', () => {
    const own = { topic: 'p1.replay.split-ledger-service', partition: '-1', offset: '-1' };
    expect(letterOrigin(letter(dlq(own.topic)), base)).toEqual(own);
    expect(letterOrigin(letter({ ...dlq(own.topic), 'replay-origin': 'not an origin' }), base)).toEqual(own);
    expect(
      letterOrigin(letter({ ...dlq(own.topic), 'replay-origin': 'run-1 3 0 7 p1.replay.split-ledger-service' }), base),
    ).toEqual(own);
    // replay.results is not a group's replay topic.
    const results = { topic: 'p1.replay.results', partition: '0', offset: '9' };
    expect(
      letterOrigin(
        letter({ ...dlq(results.topic, '0', '9'), 'replay-origin': 'run-1 3 0 7 p1.transaction.status_changed' }),
        base,
      ),
    ).toEqual(results);
  });
});

describe('letterRecords: what ops dlq replay delivers for a dead letter', () => {
  it('is the letter with its own headers, or the records of a bundle an earlier service dead-lettered whole', () => {
    const plain = {
      ...letter({ ...dlq('p1.transaction.status_changed', '2', '41'), 'x-trace': 't' }),
      key: Buffer.from('k'),
    };
    expect(letterRecords(plain as KafkaMessage, base)).toEqual([
      {
        key: Buffer.from('k'),
        value: null,
        headers: { 'x-trace': Buffer.from('t') },
        sourceTopic: 'p1.transaction.status_changed',
        sourcePartition: 2,
        sourceOffset: '41',
      },
    ]);
    const bundled = [
      {
        key: Buffer.from('a'),
        value: Buffer.from('{"id":"evt_a"}'),
        headers: { 'event-id': Buffer.from('evt_a') },
        offset: '41',
      },
      { key: Buffer.from('b'), value: Buffer.from('{"id":"evt_b"}'), headers: {}, offset: '44' },
    ];
    // As a service of an earlier release dead-letters a bundle whole: its dlq-original-* say the
    // bundle's first record, and of the replay headers it keeps only the one it does not know.
    const whole = {
      ...letter({
        ...dlq('p1.transaction.status_changed', '2', '41'),
        'replay-bundle': formatBundleHeader(2, 'run-1'),
      }),
      value: encodeReplayBundle(bundled),
    } as KafkaMessage;
    expect(letterRecords(whole, base)).toEqual(
      bundled.map((r) => ({
        key: r.key,
        value: r.value,
        headers: r.headers,
        sourceTopic: 'p1.transaction.status_changed',
        sourcePartition: 2,
        sourceOffset: r.offset,
      })),
    );
    // A bundle letter that cannot be opened goes back as it is (and is dead-lettered again, once).
    for (const damaged of [
      { ...whole, value: Buffer.from('nonsense') },
      { ...whole, headers: { ...whole.headers, 'replay-bundle': Buffer.from(formatBundleHeader(3, 'run-1')) } },
    ] as KafkaMessage[]) {
      expect(letterRecords(damaged, base)).toEqual([
        {
          key: null,
          value: damaged.value,
          headers: { 'replay-bundle': damaged.headers!['replay-bundle'] },
          sourceTopic: 'p1.transaction.status_changed',
          sourcePartition: 2,
          sourceOffset: '41',
        },
      ]);
    }
  });
});
