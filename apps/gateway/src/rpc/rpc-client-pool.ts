import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Logger } from 'pino';
import { ErrorCodes, KEY_IDEMPOTENT_PATTERNS, type RpcContext, type RpcReply } from '@payments/contracts';
import {
  FramedRpcClient,
  RPC_REFUSED,
  RpcConnectionLostError,
  RpcNotSentError,
  RpcRemoteError,
  RpcTimeoutError,
  isAdminPattern,
  type RpcSigner,
} from '@payments/platform';
import { ApiException } from '../http/api-exception';

interface Endpoint {
  address: string;
  client: FramedRpcClient;
}

/**
 * RPC clients for one service: a multiplexed connection per address, round-robin, names re-resolved every `refreshMs`
 * so every pod of a headless Service gets traffic. A failed connect tries the next address (nothing was sent), each
 * capped by `connectTimeoutMs`; a call unanswered within `timeoutMs` fails with 503 rather than hang.
 */
export class RpcClientPool {
  private endpoints: Endpoint[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly service: string,
    private readonly addrs: string,
    private readonly timeoutMs: number,
    private readonly connectTimeoutMs: number,
    private readonly refreshMs: number,
    private readonly logger: Logger,
    private readonly signer: RpcSigner,
    private readonly maxFrameBytes: number,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(
      () =>
        void this.refresh().catch((err) =>
          this.logger.warn({ err, service: this.service }, 'RPC address refresh failed'),
        ),
      this.refreshMs,
    );
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const e of this.endpoints) e.client.close();
    this.endpoints = [];
  }

  get addresses(): string[] {
    return this.endpoints.map((e) => e.address);
  }

  private async refresh(): Promise<void> {
    const wanted: string[] = [];
    for (const entry of this.addrs
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const i = entry.lastIndexOf(':');
      const host = entry.slice(0, i);
      const port = entry.slice(i + 1);
      if (isIP(host)) {
        wanted.push(`${host}:${port}`);
        continue;
      }
      try {
        const found = await lookup(host, { all: true });
        for (const a of found) wanted.push(`${a.family === 6 ? `[${a.address}]` : a.address}:${port}`);
      } catch (err) {
        this.logger.warn(
          { host, err: (err as Error).message, service: this.service },
          'cannot resolve RPC host; keeping previous addresses',
        );
        for (const e of this.endpoints) if (!wanted.includes(e.address)) wanted.push(e.address);
      }
    }
    const keep = this.endpoints.filter((e) => wanted.includes(e.address));
    // An address that left (a terminating pod) finishes the calls it has in flight.
    for (const gone of this.endpoints.filter((e) => !wanted.includes(e.address))) gone.client.retire();
    for (const address of wanted.filter((a) => !keep.some((e) => e.address === a))) {
      const i = address.lastIndexOf(':');
      const host = address.slice(0, i).replace(/^\[|\]$/g, '');
      const client = new FramedRpcClient({
        host,
        port: Number(address.slice(i + 1)),
        signer: this.signer,
        timeoutMs: this.timeoutMs,
        connectTimeoutMs: this.connectTimeoutMs,
        maxFrameBytes: this.maxFrameBytes,
      });
      keep.push({ address, client });
    }
    this.endpoints = keep;
  }

  /** Sends one request and unwraps the reply: data, or an ApiException carrying the service's error. */
  async call<TBody, TResult>(pattern: string, ctx: RpcContext | { request_id: string }, body: TBody): Promise<TResult> {
    // Services refuse it anyway; failing here names the bug (an admin call from a merchant path).
    if (isAdminPattern(pattern) && this.signer.scope !== 'admin')
      throw new Error(`${pattern} needs the admin RPC client`);
    const tries = Math.max(1, this.endpoints.length);
    // One deadline for the call, however many addresses it has to try.
    const deadline = Date.now() + this.timeoutMs;
    // This call's own turn: the next tries follow from it, so calls running at the same time
    // cannot send a retry back to the address that just failed.
    const first = this.next++;
    let lastError: unknown;
    for (let attempt = 0; attempt < tries; attempt++) {
      const endpoint = this.endpoints[(first + attempt) % this.endpoints.length];
      // The first attempt gets the whole timeout as it is (see FramedRpcClient.request on timer
      // durations); its connect is capped by the client, so a dead address leaves time for the next.
      const left = attempt === 0 ? this.timeoutMs : deadline - Date.now();
      if (!endpoint || left <= 0) break;
      try {
        const reply = await endpoint.client.request<RpcReply<TResult>>(pattern, { ctx, body }, left);
        if (reply.ok) return reply.data;
        const refused = new ApiException(reply.error.code, reply.error.message, reply.error.errors);
        refused.notExecuted = reply.error.not_executed === true;
        // The service's own write broke mid-commit: settled one way or the other by now.
        // So has a payment the provider answered unreadably (provider_error): a retry with the same
        // key gets that payment as it is by then.
        const settled = refused.code === ErrorCodes.OutcomeUnknown || refused.code === ErrorCodes.ProviderError;
        if (settled && KEY_IDEMPOTENT_PATTERNS.has(pattern)) refused.rerunAfter = Date.now();
        throw refused;
      } catch (err) {
        if (err instanceof ApiException) throw err;
        if (err instanceof RpcTimeoutError) {
          this.logger.error(
            { service: this.service, pattern, address: endpoint.address },
            'RPC timed out; outcome unknown',
          );
          throw outcomeUnknown(pattern, `${this.service} did not answer in time`);
        }
        if (err instanceof RpcNotSentError) {
          lastError = err;
          this.logger.warn(
            { service: this.service, address: endpoint.address, err: err.message },
            'RPC connection failed; trying the next address',
          );
          continue;
        }
        if (err instanceof RpcConnectionLostError) {
          // Never re-sent elsewhere: the first instance may already have acted on it.
          this.logger.error(
            { service: this.service, pattern, address: endpoint.address, err: err.message },
            'RPC connection broke; outcome unknown',
          );
          throw outcomeUnknown(pattern, `${this.service} stopped answering`);
        }
        if (err instanceof RpcRemoteError && err.code === RPC_REFUSED) {
          // Nothing ran. Usually INTERNAL_RPC_SECRET differs between the gateway and the service.
          this.logger.error(
            { service: this.service, pattern, address: endpoint.address, err: err.message },
            'service refused the RPC credentials; check INTERNAL_RPC_SECRET',
          );
          const refused = new ApiException(
            ErrorCodes.ServiceUnavailable,
            `${this.service} is unavailable; try again shortly`,
          );
          refused.notExecuted = true;
          throw refused;
        }
        // The service answered with an unexpected error: its log has the details.
        this.logger.error(
          { service: this.service, pattern, err: String((err as Error)?.message ?? err) },
          'RPC failed',
        );
        throw err;
      }
    }
    this.logger.error(
      { service: this.service, err: String((lastError as Error)?.message ?? lastError) },
      'no instance reachable',
    );
    const unavailable = new ApiException(
      ErrorCodes.ServiceUnavailable,
      `${this.service} is unavailable; try again shortly`,
    );
    unavailable.notExecuted = true;
    throw unavailable;
  }
}

/**
 * How long after the gateway stops waiting a service may still commit: services cancel their database work
 * RPC_DEADLINE_MARGIN_MS after the deadline, plus time for the cancel to land. Until then a same-key retry gets 409.
 */
export const OUTCOME_SETTLES_MS = 5_000;

/**
 * The answer when a call was sent and no reply came, so it may have been applied. For KEY_IDEMPOTENT_PATTERNS a
 * same-key retry runs again once the first can no longer commit; for others this answer is kept for the key (ADR 0014).
 */
function outcomeUnknown(pattern: string, what: string): ApiException {
  const rerunnable = KEY_IDEMPOTENT_PATTERNS.has(pattern);
  const unknown = new ApiException(
    ErrorCodes.OutcomeUnknown,
    rerunnable
      ? `${what}; the request may or may not have been applied: ` +
          'retry with the same Idempotency-Key to get its outcome (or verify by reference); ' +
          'do not retry with a new key until you know'
      : `${what}; the request may or may not have been applied: ` +
          'check its outcome before trying again with a new Idempotency-Key',
  );
  if (rerunnable) unknown.rerunAfter = Date.now() + OUTCOME_SETTLES_MS;
  return unknown;
}

export const TRANSACTION_SERVICE = Symbol('TRANSACTION_SERVICE');
export const SPLIT_LEDGER_SERVICE = Symbol('SPLIT_LEDGER_SERVICE');
export const WEBHOOK_DISPATCHER = Symbol('WEBHOOK_DISPATCHER');
/** The services with the admin scope: inject them only in admin controllers (a unit test checks). */
export const ADMIN_TRANSACTION_SERVICE = Symbol('ADMIN_TRANSACTION_SERVICE');
export const ADMIN_SPLIT_LEDGER_SERVICE = Symbol('ADMIN_SPLIT_LEDGER_SERVICE');
export const ADMIN_WEBHOOK_DISPATCHER = Symbol('ADMIN_WEBHOOK_DISPATCHER');
