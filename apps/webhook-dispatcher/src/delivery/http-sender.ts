import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { isForbiddenAddress } from './ssrf';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  retryAfter: string | undefined;
}

export class ForbiddenTargetError extends Error {}

/**
 * POSTs one webhook. The host is resolved here, checked against the SSRF rules and connected to at exactly that
 * address, so DNS rebinding cannot reach an internal address. No redirects; anything but a 2xx in time fails.
 */
@Injectable()
export class HttpSender implements OnApplicationShutdown {
  private readonly agent: Agent;

  constructor(@Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig) {
    // The extra CA goes in as a secure context built once, not as `ca`: the agent names its
    // connection pools by concatenating `ca` (every root certificate, ≈ 200 kB) several times
    // per request, and would parse all of them again for each new connection.
    const secureContext = config.WEBHOOK_CA_FILE
      ? createSecureContext({ ca: [...rootCertificates, readFileSync(config.WEBHOOK_CA_FILE, 'utf8')] })
      : undefined;
    // Keep-alive: consecutive deliveries to one endpoint reuse the TLS connection. A reused
    // connection goes to an address that was checked when it was opened.
    this.agent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 30_000, secureContext });
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }

  /** The addresses `host` resolves to, refused when any of them is private or reserved. */
  async resolveTarget(host: string): Promise<{ address: string; family: number }> {
    const bare = host.replace(/^\[|\]$/g, '');
    const found = isIP(bare)
      ? [{ address: bare, family: isIP(bare) }]
      : await lookup(bare, { all: true, verbatim: true });
    if (found.length === 0) throw new ForbiddenTargetError(`${host} does not resolve`);
    if (!this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
      const bad = found.find((a) => isForbiddenAddress(a.address));
      if (bad) throw new ForbiddenTargetError(`${host} resolves to ${bad.address}, a private or reserved address`);
    }
    return found[0];
  }

  /**
   * `timeoutMs` (default WEBHOOK_TIMEOUT_MS, never longer) is one deadline for the name lookup and
   * the request together; past it the request is destroyed and the result is a failure.
   */
  async send(url: string, headers: Record<string, string>, body: string, timeoutMs?: number): Promise<SendResult> {
    const started = Date.now();
    const limitMs = Math.min(timeoutMs ?? this.config.WEBHOOK_TIMEOUT_MS, this.config.WEBHOOK_TIMEOUT_MS);
    const target = new URL(url);
    let pinned: { address: string; family: number };
    let lookupTimer: NodeJS.Timeout | undefined;
    try {
      pinned = await Promise.race([
        this.resolveTarget(target.hostname),
        new Promise<never>((_, reject) => {
          lookupTimer = setTimeout(() => reject(new Error(`name lookup took longer than ${limitMs} ms`)), limitMs);
        }),
      ]);
    } catch (err) {
      return {
        statusCode: null,
        error: (err as Error).message,
        durationMs: Date.now() - started,
        retryAfter: undefined,
      };
    } finally {
      clearTimeout(lookupTimer);
    }
    const remainingMs = Math.max(1, limitMs - (Date.now() - started));
    const pinnedLookup = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
      if (opts?.all) cb(null, [pinned]);
      else cb(null, pinned.address, pinned.family);
    }) as unknown as LookupFunction;

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, durationMs: Date.now() - started });
      };
      const req = request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
          lookup: pinnedLookup,
          agent: this.agent,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined;
          res.resume();
          res.on('end', () =>
            finish({ statusCode: status, error: status >= 200 && status < 300 ? null : `HTTP ${status}`, retryAfter }),
          );
          res.on('error', () => finish({ statusCode: status, error: `HTTP ${status}`, retryAfter }));
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`no response within ${limitMs} ms`));
      }, remainingMs);
      req.on('error', (err) => finish({ statusCode: null, error: err.message, retryAfter: undefined }));
      req.end(body);
    });
  }
}
