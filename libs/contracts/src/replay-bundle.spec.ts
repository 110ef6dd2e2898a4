import {
  decodeReplayBundle,
  encodeReplayBundle,
  formatBundleHeader,
  parseBundleHeader,
  type BundleRecord,
} from './replay-bundle';

const records: BundleRecord[] = [
  {
    key: Buffer.from('txn_1'),
    value: Buffer.from('{"id":"evt_1"}'),
    headers: { 'event-id': Buffer.from('evt_1'), 'correlation-id': Buffer.from('') },
    offset: '1000',
  },
  // A gap (a transaction marker, or a record left out) and a record without key, value or headers.
  { key: null, value: null, headers: {}, offset: '1003' },
  {
    key: Buffer.from('txn_2'),
    value: Buffer.from('{"amount":5000,"note":"é ✓"}'),
    headers: { twice: [Buffer.from('a'), Buffer.from('b')], text: 'plain', empty: undefined },
    offset: '1004',
  },
];

describe('replay bundle', () => {
  it('gives back every record, byte for byte, with its offset', () => {
    const decoded = decodeReplayBundle(encodeReplayBundle(records));
    expect(decoded).toStrictEqual([
      records[0],
      records[1],
      {
        ...records[2],
        headers: { twice: [Buffer.from('a'), Buffer.from('b')], text: Buffer.from('plain'), empty: undefined },
      },
    ]);
  });

  it('holds offsets in any order, far apart or unknown, and large values', () => {
    const big = Buffer.alloc(300_000, 7);
    const far: BundleRecord[] = [
      { key: null, value: big, headers: {}, offset: '9007199254740990' },
      { key: null, value: Buffer.from('x'), headers: {}, offset: '0' },
      { key: null, value: Buffer.from('y'), headers: {}, offset: '-1' },
    ];
    expect(decodeReplayBundle(encodeReplayBundle(far))).toStrictEqual(far);
    // What no offset this code reads can be (not an offset, or past 2^53) is carried as unknown.
    const odd = ['n/a', '', '99999999999999999'].map((offset) => ({ ...far[1], offset }));
    expect(decodeReplayBundle(encodeReplayBundle(odd))).toEqual(odd.map((r) => ({ ...r, offset: '-1' })));
  });

  it('reads a repeated header name as the list of its values, however many', () => {
    const many = Array.from({ length: 65_000 }, (_, i) => Buffer.from([i % 256]));
    const record = { key: null, value: null, offset: '1', headers: { a: many, b: [null, Buffer.from('x')] } };
    const [decoded] = decodeReplayBundle(encodeReplayBundle([record as unknown as BundleRecord])) as BundleRecord[];
    expect(decoded.headers.a).toStrictEqual(many);
    // A null among the values is left out, as Kafka clients' header lists hold bytes only.
    expect(decoded.headers.b).toStrictEqual([Buffer.from('x')]);
  });

  it('has a header that says how many records and which run', () => {
    expect(parseBundleHeader(formatBundleHeader(2500, 'run-1'))).toStrictEqual({ count: 2500, run: 'run-1' });
    expect(parseBundleHeader('100000 run-1')).toStrictEqual({ count: 100_000, run: 'run-1' });
    for (const bad of ['0 run-1', '2500', 'x run-1', '100001 run-1', '5 run 1', ''])
      expect(parseBundleHeader(bad)).toBeUndefined();
  });

  it('says why a value is not a bundle instead of reading past it', () => {
    const whole = encodeReplayBundle(records);
    expect(decodeReplayBundle(null)).toMatch(/without a value/);
    expect(decodeReplayBundle(Buffer.from('{"id":"evt_1"}'))).toMatch(/version/);
    for (const cut of [1, 5, 20, whole.length - 1])
      expect(decodeReplayBundle(whole.subarray(0, cut))).toBe('a truncated replay bundle');
    expect(decodeReplayBundle(Buffer.concat([whole, Buffer.from([0])]))).toMatch(/bytes after/);
    const huge = Buffer.from(whole);
    huge.writeUInt32BE(100_001, 1);
    expect(decodeReplayBundle(huge)).toMatch(/of 100001 records/);
  });
});
