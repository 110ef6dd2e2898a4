/**
 * A replay bundle: many records of one source partition in the value of one replay-topic record (header
 * `replay-bundle`: count and run), since per-record encoding by Kafka clients limited live replay (ADR 0007). Layout,
 * big-endian: version u8 (1), count u32; per record: offset f64 (-1: unknown), key and value each as i32 length (-1:
 * null) and bytes, u16 header count, and per header a u16-length UTF-8 name and an i32-length value.
 */

/** A record's headers as Kafka clients give them (a repeated name holds a list). */
export type BundleHeaders = Record<string, Buffer | string | (Buffer | string)[] | undefined>;

export interface BundleRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: BundleHeaders;
  /** The record's offset in its source partition ('-1': unknown, e.g. a dead letter that does not say). */
  offset: string;
}

const VERSION = 1;
/** More records than this in one bundle is not a bundle (a damaged or hand-made count). */
export const MAX_BUNDLE_RECORDS = 100_000;

/** The `replay-bundle` header: the bundle's record count and the run that made it. */
export function formatBundleHeader(count: number, run: string): string {
  return `${count} ${run}`;
}

/** The count and run of a `replay-bundle` header; undefined when it is not one. */
export function parseBundleHeader(value: string): { count: number; run: string } | undefined {
  const m = /^(\d{1,6}) (\S+)$/.exec(value);
  const count = Number(m?.[1]);
  return m && count >= 1 && count <= MAX_BUNDLE_RECORDS ? { count, run: m[2] } : undefined;
}

const bytesOf = (v: Buffer | string | null | undefined): Buffer | null =>
  v === null || v === undefined ? null : Buffer.isBuffer(v) ? v : Buffer.from(v);

const headerList = (headers: BundleHeaders): [string, Buffer | null][] => {
  const list: [string, Buffer | null][] = [];
  for (const name of Object.keys(headers)) {
    const v = headers[name];
    if (Array.isArray(v)) for (const one of v) list.push([name, bytesOf(one)]);
    else list.push([name, bytesOf(v)]);
  }
  return list;
};

/** Header names as bytes, kept: a topic's records carry the same few names. */
const names = new Map<string, Buffer>();
const nameBytes = (name: string): Buffer => {
  let bytes = names.get(name);
  if (bytes === undefined) {
    bytes = Buffer.from(name);
    if (names.size < 1_000) names.set(name, bytes);
  }
  return bytes;
};

const offsetOf = (offset: string): number => {
  const n = /^\d{1,16}$/.test(offset) ? Number(offset) : -1;
  return Number.isSafeInteger(n) ? n : -1;
};

/** The bundle of `records` (of one source partition), as a record value. */
export function encodeReplayBundle(records: BundleRecord[]): Buffer {
  const prepared = records.map((r) => {
    const headers = headerList(r.headers).map(([name, v]) => [nameBytes(name), v] as const);
    if (headers.length > 0xffff) throw new RangeError('a record with more than 65535 headers');
    return { offset: offsetOf(r.offset), key: bytesOf(r.key), value: bytesOf(r.value), headers };
  });
  let size = 5;
  for (const r of prepared) {
    size += 8 + 4 + (r.key?.length ?? 0) + 4 + (r.value?.length ?? 0) + 2;
    for (const [name, v] of r.headers) {
      if (name.length > 0xffff) throw new RangeError('a header name longer than 65535 bytes');
      size += 2 + name.length + 4 + (v?.length ?? 0);
    }
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.writeUInt8(VERSION, 0);
  at = out.writeUInt32BE(prepared.length, at);
  const bytes = (b: Buffer | null) => {
    at = out.writeInt32BE(b === null ? -1 : b.length, at);
    // TypedArray.set: for the small buffers of a record, cheaper than Buffer.copy's checks.
    if (b !== null) {
      out.set(b, at);
      at += b.length;
    }
  };
  for (const r of prepared) {
    at = out.writeDoubleBE(r.offset, at);
    bytes(r.key);
    bytes(r.value);
    at = out.writeUInt16BE(r.headers.length, at);
    for (const [name, v] of r.headers) {
      at = out.writeUInt16BE(name.length, at);
      out.set(name, at);
      at += name.length;
      bytes(v);
    }
  }
  return out;
}

/** The records of a bundle, or why it is not one. Keys, values and header values are views of `value`, not copies. */
export function decodeReplayBundle(value: Buffer | null): BundleRecord[] | string {
  if (value === null) return 'a replay bundle without a value';
  let at = 0;
  const need = (n: number) => {
    if (at + n > value.length) throw new RangeError('truncated');
  };
  const bytes = (): Buffer | null => {
    need(4);
    const n = value.readInt32BE(at);
    at += 4;
    if (n < 0) return null;
    need(n);
    at += n;
    return value.subarray(at - n, at);
  };
  try {
    need(5);
    const version = value.readUInt8(0);
    if (version !== VERSION) return `replay bundle version ${version} (this service reads ${VERSION})`;
    const count = value.readUInt32BE(1);
    at = 5;
    if (count > MAX_BUNDLE_RECORDS) return `a replay bundle of ${count} records`;
    const records: BundleRecord[] = [];
    for (let i = 0; i < count; i++) {
      need(8);
      const n = value.readDoubleBE(at);
      const offset = Number.isSafeInteger(n) && n >= 0 ? String(n) : '-1';
      at += 8;
      const key = bytes();
      const v = bytes();
      need(2);
      const headerCount = value.readUInt16BE(at);
      at += 2;
      const headers = new Map<string, Buffer | undefined | Buffer[]>();
      for (let h = 0; h < headerCount; h++) {
        need(2);
        const nameLength = value.readUInt16BE(at);
        at += 2;
        need(nameLength);
        const name = value.toString('utf8', at, at + nameLength);
        at += nameLength;
        const hv = bytes() ?? undefined;
        // A repeated name becomes a list of its values, as Kafka clients read it (a null among them is left out).
        const seen = headers.get(name);
        if (!headers.has(name)) headers.set(name, hv);
        else if (Array.isArray(seen)) {
          if (hv) seen.push(hv);
        } else
          headers.set(
            name,
            [seen, hv].filter((b): b is Buffer => b !== undefined),
          );
      }
      records.push({ key, value: v, headers: Object.fromEntries(headers), offset });
    }
    if (at !== value.length) return 'a replay bundle with bytes after its last record';
    return records;
  } catch {
    return 'a truncated replay bundle';
  }
}
