import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ErrorCodes, type Mode } from '@payments/contracts';
import { REDIS, redisReady, withinDeadline } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';

/** What the server keeps of a dashboard session; the browser holds only the random token. */
export interface Session {
  user_id: number;
  business_id: number;
  /** The test/live switch: which mode's data every page shows. A new session starts in test. */
  mode: Mode;
  /** The CSRF token every state-changing request must send in X-CSRF-Token. */
  csrf: string;
  /** Epoch ms of sign-in: the session ends DASHBOARD_SESSION_MAX_SECONDS later. */
  created_at: number;
}

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Dashboard sessions in Redis, shared by every gateway replica: the key is a hash of the cookie's
 * token (a copy of Redis gives no usable cookie), the value the Session. Each request that finds
 * a session pushes its expiry DASHBOARD_SESSION_IDLE_SECONDS ahead (idle timeout); logout deletes it.
 */
@Injectable()
export class SessionStore {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {
    this.prefix = `${config.REDIS_KEY_PREFIX}dashboard:session:`;
  }

  async create(userId: number, businessId: number): Promise<{ token: string; session: Session }> {
    const token = randomBytes(32).toString('base64url');
    const session: Session = {
      user_id: userId,
      business_id: businessId,
      mode: 'test',
      csrf: randomBytes(32).toString('base64url'),
      created_at: Date.now(),
    };
    // The user's set of session keys, so that removing the user can end every one of them.
    const userSessions = this.userKey(userId);
    await this.call(
      this.redis
        .multi()
        .set(this.key(token), JSON.stringify(session), 'EX', this.config.DASHBOARD_SESSION_IDLE_SECONDS)
        .sadd(userSessions, digest(token))
        .expire(userSessions, this.config.DASHBOARD_SESSION_MAX_SECONDS)
        .exec(),
    );
    return { token, session };
  }

  /** The live session of this token (its idle expiry pushed back), or null. */
  async get(token: string): Promise<Session | null> {
    if (!TOKEN.test(token)) return null;
    const raw = await this.call(this.redis.getex(this.key(token), 'EX', this.config.DASHBOARD_SESSION_IDLE_SECONDS));
    if (raw === null) return null;
    const session = JSON.parse(raw) as Session;
    if (Date.now() - session.created_at > this.config.DASHBOARD_SESSION_MAX_SECONDS * 1000) {
      await this.destroy(token);
      return null;
    }
    return session;
  }

  /** Keeps the session's remaining idle time (KEEPTTL). */
  async save(token: string, session: Session): Promise<void> {
    await this.call(this.redis.set(this.key(token), JSON.stringify(session), 'KEEPTTL', 'XX'));
  }

  async destroy(token: string): Promise<void> {
    if (!TOKEN.test(token)) return;
    await this.call(this.redis.del(this.key(token)));
  }

  /** Ends every session of the user (a removed user); answers how many were still live. */
  async endAllOf(userId: number): Promise<number> {
    const userSessions = this.userKey(userId);
    const digests = await this.call(this.redis.smembers(userSessions));
    const keys = digests.map((d) => this.prefix + d);
    const [ended] = await Promise.all([
      keys.length > 0 ? this.call(this.redis.del(...keys)) : Promise.resolve(0),
      this.call(this.redis.del(userSessions)),
    ]);
    return ended;
  }

  private userKey(userId: number): string {
    return `${this.prefix}user:${userId}`;
  }

  private key(token: string): string {
    return this.prefix + digest(token);
  }

  /** Sessions need Redis: when it is down or slow, 503 at once rather than a hang. */
  private async call<T>(p: Promise<T>): Promise<T> {
    try {
      if (!redisReady(this.redis)) throw new Error(`redis ${this.redis.status}`);
      return await withinDeadline(p, this.config.REDIS_TIMEOUT_MS, 'dashboard session');
    } catch (err) {
      p.catch(() => undefined);
      const e = new ApiException(
        ErrorCodes.ServiceUnavailable,
        'sessions are unavailable right now; try again shortly',
      );
      e.cause = err;
      throw e;
    }
  }
}
