import type {
  Connector,
  InitiateOutcome,
  InitiateRequest,
  NotificationOutcome,
  RefundOutcome,
  RefundRequest,
  SyncOutcome,
  SyncTarget,
} from '../connector';
import { type OzowCredentials, maskOzowSite, parseOzowCredentials } from './ozow-credentials';
import { type FetchLike, send } from './ozow-http';
import { identifyOzowNotification, verifyOzowNotification } from './ozow-notification';
import { interpretRefundReply, planRefund, readToken, tokenForm } from './ozow-refund';
import { interpretPaymentRequestReply, interpretTransactionsReply } from './ozow-reply';
import { OZOW_METHODS, byReferenceQuery, planPaymentRequest } from './ozow-request';

export const OZOW_DEFAULT_API_URL = 'https://api.ozow.com';

export interface OzowConnectorOptions {
  /** Defaults to Node's global fetch; tests inject one. */
  fetch?: FetchLike;
}

const JSON_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };

/**
 * Ozow (instant EFT) via its published API; logs nothing. An empty status answer is `not_found` though Ozow may omit an
 * unopened payment request: safe, since the poller only uses it to fail a lost initiate, whose page URL nobody has.
 */
export class OzowConnector implements Connector<OzowCredentials> {
  readonly provider = 'ozow' as const;
  readonly methods = OZOW_METHODS;
  private readonly base: string;
  private readonly fetch: FetchLike;

  /** `apiUrl`: OZOW_API_URL, e.g. https://api.ozow.com. Throws when it is not an http(s) URL. */
  constructor(apiUrl: string = OZOW_DEFAULT_API_URL, options: OzowConnectorOptions = {}) {
    const url = new URL(apiUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error('the Ozow API URL must be an http(s) URL');
    this.base = url.toString().replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  parseCredentials(input: unknown) {
    return parseOzowCredentials(input);
  }

  maskedId(c: OzowCredentials): string {
    return maskOzowSite(c);
  }

  async initiate(c: OzowCredentials, req: InitiateRequest, opts: { timeoutMs: number }): Promise<InitiateOutcome> {
    const planned = planPaymentRequest(c, req);
    if (!planned.ok) return { kind: 'declined', source: 'connector', reason: planned.reason };
    const res = await send(
      this.fetch,
      {
        method: 'POST',
        url: `${this.base}/PostPaymentRequest`,
        headers: { ApiKey: c.apiKey, ...JSON_HEADERS },
        body: JSON.stringify(planned.body),
      },
      opts.timeoutMs,
    );
    if (res.kind === 'failed') return { kind: 'unknown', sent: res.sent, reason: res.reason };
    return interpretPaymentRequestReply(res.status, res.body);
  }

  /** Always by our transaction id (the TransactionReference we sent), with the payment's test flag. */
  async sync(c: OzowCredentials, target: SyncTarget, opts: { timeoutMs: number }): Promise<SyncOutcome> {
    const query = byReferenceQuery(c, target.transactionId, target.test === true);
    const url = `${this.base}/GetTransactionByReference?${query}`;
    const res = await send(
      this.fetch,
      { method: 'GET', url, headers: { ApiKey: c.apiKey, Accept: 'application/json' } },
      opts.timeoutMs,
    );
    if (res.kind === 'failed') return { kind: 'unknown', reason: res.reason };
    return interpretTransactionsReply(res.status, res.body, c.siteCode, target.transactionId);
  }

  verifyNotification(c: OzowCredentials, rawBody: string, contentType: string | undefined): NotificationOutcome {
    return verifyOzowNotification(c, rawBody, contentType);
  }

  /**
   * A payment notification posted to the account-wide URL (the notify URL set in Ozow's merchant
   * admin; every payment request names its own, which takes precedence): our transaction id is its
   * TransactionReference. Not trusted: the notification is then verified as usual.
   */
  identifyNotification(rawBody: string, contentType: string | undefined): string | null {
    return identifyOzowNotification(rawBody, contentType);
  }

  /**
   * An access token, then one refund. A token that cannot be had means nothing was submitted
   * (declined); after the submission went out, anything uncertain is unknown, for an operator.
   */
  async refund(c: OzowCredentials, req: RefundRequest, opts: { timeoutMs: number }): Promise<RefundOutcome> {
    const planned = planRefund(c, req);
    if (!planned.ok) return { kind: 'declined', reason: planned.reason };
    const started = Date.now();
    const tokenRes = await send(
      this.fetch,
      {
        method: 'POST',
        url: `${this.base}/token`,
        headers: { ApiKey: c.apiKey, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: tokenForm(c),
      },
      opts.timeoutMs,
    );
    const token = readToken(tokenRes);
    if (!token.ok) return { kind: 'declined', reason: token.reason };
    const left = Math.max(1_000, opts.timeoutMs - (Date.now() - started));
    const res = await send(
      this.fetch,
      {
        method: 'POST',
        url: `${this.base}/secure/refunds/submit`,
        headers: { Authorization: `Bearer ${token.token}`, ...JSON_HEADERS },
        body: JSON.stringify(planned.body),
      },
      left,
    );
    return interpretRefundReply(res, req.providerReference.trim());
  }
}
