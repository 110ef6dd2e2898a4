import { gunzipSync } from 'node:zlib';
import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { useFastGzip } from './fast-gzip';

describe('useFastGzip', () => {
  it('makes kafkajs gzip at the fastest level, readable by any gzip reader', async () => {
    useFastGzip();
    const codec = CompressionCodecs[CompressionTypes.GZIP]();
    const events = Buffer.from(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: i, status: 'success' }))));
    const compressed: Buffer = await codec.compress({ buffer: events });
    // RFC 1952: the XFL byte is 4 when the compressor used its fastest algorithm (zlib's level 1).
    expect(compressed[8]).toBe(4);
    expect(gunzipSync(compressed)).toEqual(events);
    expect(await codec.decompress(compressed)).toEqual(events);
  });
});
