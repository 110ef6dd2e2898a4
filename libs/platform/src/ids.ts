import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time (as crypto.randomUUID caches its
 * entropy): an id per request would otherwise cost a call into the CSPRNG each.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function randomByte(): number {
  if (used === pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  return pool[used++];
}

/** Random base62 string (rejection sampling, so every character is uniform). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Prefixed public identifier, e.g. `txn_4f9Q…` — the prefix tells support staff what it is. */
export function publicId(prefix: string, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}
