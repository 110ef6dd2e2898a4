import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string (rejection sampling, so every character is uniform). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Prefixed public identifier, e.g. `txn_4f9Q…` — the prefix tells support staff what it is. */
export function publicId(prefix: string, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}
