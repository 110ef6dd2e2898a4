import { createHmac, createSecretKey, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ADMIN_RPC_PATTERNS } from '@payments/contracts';

/**
 * The signed envelope of gateway → service RPC, `auth: { v, scope, ts, nonce, ttl, sig }`, `sig` an HMAC-SHA256
 * (INTERNAL_RPC_SECRET) over them and the body bytes. `ttl` (v2) is how long the caller still waits, so no work starts
 * for one that gave up (ADR 0014); v1 is still accepted so services can deploy first.
 */
export type RpcScope = 'merchant' | 'admin';

export interface RpcAuth {
  v: 1 | 2;
  scope: RpcScope;
  ts: number;
  nonce: string;
  /** Version 2: the caller's time left, in ms, when the frame was written. */
  ttl?: number;
  sig: string;
}

/**
 * `oversize`: a frame longer than the connection's limit, refused before it is read. `timeout`: a
 * connection without a valid request, or with a frame left unfinished, for RPC_FRAME_TIMEOUT_MS.
 */
export type RefusalReason =
  'missing' | 'malformed' | 'bad_signature' | 'expired' | 'replayed' | 'scope' | 'oversize' | 'timeout';

/** Used only when NODE_ENV=development and no secret is set; every other environment must set one. */
export const DEVELOPMENT_RPC_SECRET = 'development-only-internal-rpc-secret-not-for-production';

const ADMIN_PATTERNS: ReadonlySet<string> = new Set(ADMIN_RPC_PATTERNS);
const NONCE = /^[A-Za-z0-9-]{16,64}$/;

export function isAdminPattern(pattern: string): boolean {
  return ADMIN_PATTERNS.has(pattern);
}

/** The body is the JSON text as sent (empty for no payload): signed once, verified without parsing. */
export type RpcBody = string | Buffer;

function mac(
  key: KeyObject,
  pattern: string,
  scope: string,
  ts: number,
  nonce: string,
  ttl: number | undefined,
  body: RpcBody,
): Buffer {
  const head =
    ttl === undefined
      ? `1\n${pattern}\n${scope}\n${ts}\n${nonce}\n`
      : `2\n${pattern}\n${scope}\n${ts}\n${nonce}\n${ttl}\n`;
  return createHmac('sha256', key).update(head).update(body).digest();
}

/** Signs outgoing requests with the current secret under one fixed scope. */
export class RpcSigner {
  // A KeyObject is imported once; a raw Buffer would be imported again by every createHmac.
  private readonly key: KeyObject;

  constructor(
    secret: string,
    readonly scope: RpcScope,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** Signs a request; with `ttlMs` (the caller's time left) as version 2, without as version 1. */
  sign(pattern: string, body: RpcBody, ttlMs?: number, now = Date.now()): RpcAuth {
    const nonce = randomUUID();
    const sig = mac(this.key, pattern, this.scope, now, nonce, ttlMs, body).toString('base64url');
    return ttlMs === undefined
      ? { v: 1, scope: this.scope, ts: now, nonce, sig }
      : { v: 2, scope: this.scope, ts: now, nonce, ttl: ttlMs, sig };
  }
}

export interface VerifierOptions {
  secrets: string[];
  /** How far a request's timestamp may be from the receiver's clock, either way. */
  maxAgeMs: number;
}

/**
 * Checks the envelope of an incoming request: a valid signature under any accepted secret
 * (current or previous, for rotation), a timestamp inside the window, a nonce not seen within
 * it, and the admin scope for admin-only patterns. Answers why it refuses, or null.
 */
export class RpcVerifier {
  private readonly keys: KeyObject[];
  private readonly seen = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: VerifierOptions) {
    this.keys = options.secrets.filter((s) => s !== '').map((s) => createSecretKey(Buffer.from(s, 'utf8')));
    this.sweeper = setInterval(() => this.sweep(Date.now()), options.maxAgeMs);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  verify(packet: { pattern?: unknown; body: RpcBody; auth?: unknown }, now = Date.now()): RefusalReason | null {
    const auth = packet.auth as Partial<RpcAuth> | undefined;
    if (auth === undefined || auth === null) return 'missing';
    if (
      typeof auth !== 'object' ||
      (auth.v !== 1 && auth.v !== 2) ||
      (auth.v === 2 && (typeof auth.ttl !== 'number' || !Number.isSafeInteger(auth.ttl) || auth.ttl < 0)) ||
      (auth.scope !== 'merchant' && auth.scope !== 'admin') ||
      typeof auth.ts !== 'number' ||
      !Number.isSafeInteger(auth.ts) ||
      typeof auth.nonce !== 'string' ||
      !NONCE.test(auth.nonce) ||
      typeof auth.sig !== 'string' ||
      typeof packet.pattern !== 'string'
    ) {
      return 'malformed';
    }
    const given = Buffer.from(auth.sig, 'base64url');
    const valid = this.keys.some((key) => {
      const expected = mac(
        key,
        packet.pattern as string,
        auth.scope!,
        auth.ts!,
        auth.nonce!,
        auth.v === 2 ? auth.ttl : undefined,
        packet.body,
      );
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!valid) return 'bad_signature';
    if (Math.abs(now - auth.ts) > this.options.maxAgeMs) return 'expired';
    if (this.seen.has(auth.nonce)) return 'replayed';
    this.seen.set(auth.nonce, auth.ts + this.options.maxAgeMs);
    if (isAdminPattern(packet.pattern) && auth.scope !== 'admin') return 'scope';
    return null;
  }

  private sweep(now: number): void {
    for (const [nonce, until] of this.seen) if (until < now) this.seen.delete(nonce);
  }
}

/** The secrets a process signs and verifies with: the configured ones, or the development key. */
export function rpcSecrets(config: {
  NODE_ENV: string;
  INTERNAL_RPC_SECRET: string;
  INTERNAL_RPC_SECRET_PREVIOUS: string;
}): { current: string; accepted: string[] } {
  const current = config.INTERNAL_RPC_SECRET || (config.NODE_ENV === 'development' ? DEVELOPMENT_RPC_SECRET : '');
  if (!current) throw new Error('INTERNAL_RPC_SECRET is not set');
  return { current, accepted: [current, config.INTERNAL_RPC_SECRET_PREVIOUS].filter(Boolean) };
}
