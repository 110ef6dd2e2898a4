import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ErrorCodes } from '@payments/contracts';
import { ApiException } from '../http/api-exception';

/**
 * Dashboard passwords, hashed with scrypt (memory-hard, in Node's crypto): N = 2^15, r = 8, p = 1
 * (32 MiB and about 50–100 ms per hash on one core), a 16-byte random salt, a 32-byte key. The
 * parameters are stored with each hash (`scrypt$N$r$p$salt$key`, base64url), so they can be
 * raised later without breaking stored passwords.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const MAXMEM = 64 * 1024 * 1024;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

/**
 * At most HASHES_RUNNING hashes at once and HASHES_WAITING queued: a flood of sign-ins (many
 * addresses, each under its own limit) then gets 503 at once instead of taking every libuv
 * thread (DNS lookups and file reads share them) and 32 MiB a hash.
 */
const HASHES_RUNNING = 2;
const HASHES_WAITING = 32;
let running = 0;
const waiting: (() => void)[] = [];

/** 503: the password was not checked (nothing happened); the caller retries shortly. */
export class PasswordCheckBusy extends ApiException {
  constructor() {
    super(ErrorCodes.ServiceUnavailable, 'too many sign-ins at once; try again in a few seconds', undefined, {
      'Retry-After': '2',
    });
  }
}

async function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  if (running >= HASHES_RUNNING) {
    if (waiting.length >= HASHES_WAITING) throw new PasswordCheckBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await new Promise((resolve, reject) =>
      scryptCb(password.normalize('NFC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    // The slot passes to the next waiting hash, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_BYTES, { N, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** False for a wrong password and for a stored value that is not one of our hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every(Number.isSafeInteger) || n > 2 ** 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (expected.length < 16) return false;
  const key = await scrypt(password, salt, expected.length, { N: n, r, p, maxmem: Math.max(MAXMEM, 256 * n * r) });
  return timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of nothing anyone knows, checked when the e-mail is unknown, so that an unknown address
 * takes as long to refuse as a wrong password (no telling which e-mails have accounts).
 */
export function dummyHash(): Promise<string> {
  // A hash refused while the hashes are busy (503) is not kept: the next sign-in makes it again,
  // so unknown e-mails never keep answering differently from wrong passwords.
  dummy ??= hashPassword(randomBytes(24).toString('base64url')).catch((err: unknown) => {
    dummy = undefined;
    throw err;
  });
  return dummy;
}
