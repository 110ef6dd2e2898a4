import { FrameDecoder, FrameError, decodeFrame, encodeFrame, parseBody } from './frame-codec';

const collect = (max = 1024) => {
  const frames: { header: Record<string, unknown>; body: unknown }[] = [];
  const decoder = new FrameDecoder(max, (f) => {
    const { header, body } = decodeFrame(f);
    frames.push({ header, body: parseBody(body) });
  });
  return { frames, decoder };
};

describe('RPC frame codec', () => {
  it('round-trips header and body, including multi-byte text', () => {
    const { frames, decoder } = collect();
    decoder.push(encodeFrame({ id: 1, pattern: 'p' }, JSON.stringify({ name: 'Zoë ✓' })));
    decoder.push(encodeFrame({ id: 2 }));
    expect(frames).toEqual([
      { header: { id: 1, pattern: 'p' }, body: { name: 'Zoë ✓' } },
      { header: { id: 2 }, body: undefined },
    ]);
  });

  it('reassembles frames split at any byte and several frames in one chunk', () => {
    const bytes = Buffer.concat([
      encodeFrame({ id: 1 }, '{"a":1}'),
      encodeFrame({ id: 2 }, '{"b":[1,2,3]}'),
      encodeFrame({ id: 3 }, '"x"'),
    ]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { frames, decoder } = collect();
      decoder.push(bytes.subarray(0, cut));
      decoder.push(bytes.subarray(cut));
      expect(frames.map((f) => f.header.id)).toEqual([1, 2, 3]);
      expect(frames[1].body).toEqual({ b: [1, 2, 3] });
    }
    const { frames, decoder } = collect();
    for (const byte of bytes) decoder.push(Buffer.from([byte]));
    expect(frames.map((f) => f.body)).toEqual([{ a: 1 }, { b: [1, 2, 3] }, 'x']);
  });

  it('refuses an oversize frame on its length alone, before its bytes arrive', () => {
    const { frames, decoder } = collect(64);
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(65);
    expect(() => decoder.push(prefix)).toThrow(expect.objectContaining({ reason: 'oversize' }));
    expect(frames).toEqual([]);
    const ok = collect(64);
    ok.decoder.push(encodeFrame({ id: 1 }, 'x'.repeat(40).replace(/^|$/g, '"')));
    expect(ok.frames).toHaveLength(1);
  });

  it('refuses a malformed frame', () => {
    const tooShort = Buffer.alloc(4);
    tooShort.writeUInt32BE(2);
    expect(() => collect().decoder.push(tooShort)).toThrow(FrameError);
    const lying = Buffer.alloc(12);
    lying.writeUInt32BE(8, 0);
    lying.writeUInt32BE(100, 4);
    expect(() => collect().decoder.push(lying)).toThrow(/header longer/);
    expect(() => decodeFrame(Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.from('[1]')]))).toThrow(/not an object/);
    const hugeHeader = Buffer.alloc(4 + 20_000, 0x20);
    hugeHeader.writeUInt32BE(20_000, 0);
    expect(() => decodeFrame(hugeHeader)).toThrow(/exceeds/);
    expect(() => decodeFrame(Buffer.concat([Buffer.from([0, 0, 0, 2]), Buffer.from('{x')]))).toThrow(/not JSON/);
  });

  it('tells whether part of a frame is buffered, and applies a limit raised between pushes', () => {
    const { frames, decoder } = collect(64);
    const big = encodeFrame({ id: 1 }, JSON.stringify('x'.repeat(100)));
    expect(decoder.partial).toBe(false);
    decoder.push(big.subarray(0, 2));
    expect(decoder.partial).toBe(true);
    decoder.maxBytes = 1024;
    decoder.push(big.subarray(2, big.length - 1));
    expect(decoder.partial).toBe(true);
    decoder.push(big.subarray(big.length - 1));
    expect(decoder.partial).toBe(false);
    expect(frames).toHaveLength(1);
    decoder.maxBytes = 64;
    expect(() => decoder.push(big)).toThrow(FrameError);
  });
});
