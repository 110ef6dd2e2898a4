import { chunkBySize, recordBytes } from './chunks';

const record = (valueBytes: number, headers: Record<string, string> = {}) => ({
  key: 'k',
  value: Buffer.alloc(valueBytes),
  headers,
});

describe('chunkBySize', () => {
  it('keeps every chunk under 90 % of the limit, records in order, none lost', () => {
    const records = Array.from({ length: 1_000 }, (_, i) => ({ ...record(100 + (i % 50) * 20), i }));
    const chunks = chunkBySize(records, 64 * 1024);
    expect(chunks.flat().map((r) => r.i)).toEqual(records.map((r) => r.i));
    for (const c of chunks) expect(c.reduce((n, r) => n + recordBytes(r), 0)).toBeLessThanOrEqual(64 * 1024 * 0.9);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('counts the headers a replay adds (the batch that once fit no longer does with them)', () => {
    const plain = Array.from({ length: 2_500 }, () => record(300));
    const withHeaders = plain.map((r) => ({
      ...r,
      headers: {
        'replay-run': '0b9a7c2e-8d1f-4c55-9a52-1f0d7a3c9e11',
        'replay-source-topic': 'payments.transaction.status_changed',
        'replay-source-offset': '123456789',
      },
    }));
    const limit = 1_048_588;
    expect(chunkBySize(plain, limit)).toHaveLength(1);
    expect(chunkBySize(withHeaders, limit).length).toBeGreaterThan(1);
  });

  it('caps a chunk at maxRecords', () => {
    expect(
      chunkBySize(
        Array.from({ length: 25 }, () => record(1)),
        1_000_000,
        10,
      ).map((c) => c.length),
    ).toEqual([10, 10, 5]);
  });

  it('refuses a record that can never fit, naming it', () => {
    expect(() => chunkBySize([record(10), record(2_000)], 1_000, 100, () => 'transaction.status_changed 0/42')).toThrow(
      /transaction\.status_changed 0\/42 is \d+ bytes/,
    );
  });

  it('has nothing to send for nothing', () => {
    expect(chunkBySize([], 1_000)).toEqual([]);
  });
});
