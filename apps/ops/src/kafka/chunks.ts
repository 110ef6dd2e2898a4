import type { IHeaders } from 'kafkajs';
import { OpsError, ExitCode } from '../cli/errors';

/** What a record costs in a produce request besides its key, value and headers (v2 record framing, generously). */
const RECORD_OVERHEAD = 40;
const HEADER_OVERHEAD = 10;
/** A record batch's own header (61 bytes in format v2), with room to spare. */
const BATCH_OVERHEAD = 100;
/** Of the broker's or topic's limit, the share a chunk may fill (estimates, not exact sizes). */
const FILL = 0.9;

interface Sized {
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers?: IHeaders;
}

const byteLength = (v: unknown): number =>
  v === null || v === undefined ? 0 : Buffer.isBuffer(v) ? v.length : Buffer.byteLength(String(v));

/** An upper estimate of a record's size inside a record batch (uncompressed). */
export function recordBytes(r: Sized): number {
  let n = RECORD_OVERHEAD + byteLength(r.key) + byteLength(r.value);
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) n += HEADER_OVERHEAD + Buffer.byteLength(k) + byteLength(one);
  }
  return n;
}

/**
 * Splits records, in order, into chunks of at most `maxRecords` that each fit one produce request under `limitBytes`,
 * since a larger batch is refused non-retriably. A single record that cannot fit is an error naming it.
 */
export function chunkBySize<T extends Sized>(
  records: T[],
  limitBytes: number,
  maxRecords = 5_000,
  describe: (r: T) => string = () => 'a record',
): T[][] {
  const budget = Math.floor(limitBytes * FILL) - BATCH_OVERHEAD;
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const r of records) {
    const bytes = recordBytes(r);
    if (bytes > budget) {
      throw new OpsError(
        `${describe(r)} is ${bytes} bytes with its replay headers, ` +
          `above what the destination accepts in one request (${limitBytes} bytes): ` +
          'raise max.message.bytes of the topic',
        ExitCode.Failed,
      );
    }
    if (current.length > 0 && (size + bytes > budget || current.length >= maxRecords)) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(r);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
