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
import { type DpoCredentials, maskDpoCompanyToken, parseDpoCredentials } from './dpo-credentials';
import { type FetchLike, postXml } from './dpo-http';
import { interpretCreateReply, interpretRefundReply, interpretVerifyReply } from './dpo-reply';
import { DPO_METHODS, planCreateToken, planRefundToken, planVerifyToken } from './dpo-request';
import { fieldOf, parseApi3g } from './dpo-xml';

export const DPO_DEFAULT_API_URL = 'https://secure.3gdirectpay.com';

export interface DpoConnectorOptions {
  /** Defaults to Node's global fetch; tests inject one. */
  fetch?: FetchLike;
  /** The clock for createToken's ServiceDate; tests inject one. */
  now?: () => Date;
}

/**
 * DPO Pay (3G Direct Pay, API v6): API3G XML to `{DPO_API_URL}/API/v6/`. DPO signs nothing: its answers are trusted
 * because they come over TLS from its host, and its push is only a hint to ask again (`recheck`). Logs nothing itself.
 */
export class DpoConnector implements Connector<DpoCredentials> {
  readonly provider = 'dpo' as const;
  readonly methods = DPO_METHODS;
  private readonly base: string;
  private readonly fetch: FetchLike;
  private readonly now: () => Date;

  /** `apiUrl`: DPO_API_URL, e.g. https://secure.3gdirectpay.com (no path). Throws when it is not an http(s) URL. */
  constructor(apiUrl: string = DPO_DEFAULT_API_URL, options: DpoConnectorOptions = {}) {
    const url = new URL(apiUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error('the DPO API URL must be an http(s) URL');
    this.base = url.toString().replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.now = options.now ?? (() => new Date());
  }

  get apiEndpoint(): string {
    return `${this.base}/API/v6/`;
  }

  /** The hosted payment page of a token. */
  payPageUrl(token: string): string {
    return `${this.base}/payv2.php?ID=${encodeURIComponent(token)}`;
  }

  parseCredentials(input: unknown) {
    return parseDpoCredentials(input);
  }

  maskedId(c: DpoCredentials): string {
    return maskDpoCompanyToken(c);
  }

  async initiate(c: DpoCredentials, req: InitiateRequest, opts: { timeoutMs: number }): Promise<InitiateOutcome> {
    const planned = planCreateToken(c, req, this.now());
    if (!planned.ok) return { kind: 'declined', source: 'connector', reason: planned.reason };
    const res = await postXml(this.fetch, this.apiEndpoint, planned.xml, opts.timeoutMs);
    if (res.kind === 'failed') return { kind: 'unknown', sent: res.sent, reason: res.reason };
    // DPO answers its refusals with 200 and a Result code; any other status is not its answer.
    if (res.status < 200 || res.status > 299) return { kind: 'unknown', sent: true, reason: `HTTP ${res.status}` };
    return interpretCreateReply(res.body, (token) => this.payPageUrl(token));
  }

  /** verifyToken by the token when the initiate answer gave one, else by CompanyRef (our transaction id). */
  async sync(c: DpoCredentials, target: SyncTarget, opts: { timeoutMs: number }): Promise<SyncOutcome> {
    const token = target.providerReference?.trim() || null;
    const xml = planVerifyToken(c, token !== null ? { token } : { companyRef: target.transactionId });
    const res = await postXml(this.fetch, this.apiEndpoint, xml, opts.timeoutMs);
    if (res.kind === 'failed') return { kind: 'unknown', reason: res.reason };
    if (res.status < 200 || res.status > 299) return { kind: 'unknown', reason: `HTTP ${res.status}` };
    return interpretVerifyReply(res.body, token);
  }

  /**
   * DPO's push is unsigned, so it is never applied: one naming a payment asks the caller to verify
   * it with DPO (`recheck`); anything else is invalid. DPO documents no content type, so none is
   * checked.
   */
  verifyNotification(_c: DpoCredentials, rawBody: string, _contentType: string | undefined): NotificationOutcome {
    const parsed = parseApi3g(rawBody);
    if (!parsed.ok) return { kind: 'invalid', reason: parsed.reason };
    const token = fieldOf(parsed.fields, 'TransactionToken') || null;
    const ref = fieldOf(parsed.fields, 'CompanyRef') || null;
    if (token === null && ref === null)
      return { kind: 'invalid', reason: 'push without TransactionToken or CompanyRef' };
    if ((token !== null && token.length > 100) || (ref !== null && ref.length > 100))
      return { kind: 'invalid', reason: 'push with an oversized TransactionToken or CompanyRef' };
    return { kind: 'recheck', providerReference: token, transactionId: ref };
  }

  /**
   * DPO posts every push to one URL per account: the payment it names is our transaction id, its
   * CompanyRef (read without credentials; `verifyNotification` then runs with that payment's).
   */
  identifyNotification(rawBody: string, _contentType: string | undefined): string | null {
    const parsed = parseApi3g(rawBody);
    if (!parsed.ok) return null;
    const ref = fieldOf(parsed.fields, 'CompanyRef') || null;
    return ref !== null && ref.length <= 100 ? ref : null;
  }

  /**
   * refundToken. Never retried here: DPO's refund has no idempotency key, so a lost answer is
   * `unknown` and an operator checks at DPO before anything is sent again.
   */
  async refund(c: DpoCredentials, req: RefundRequest, opts: { timeoutMs: number }): Promise<RefundOutcome> {
    const planned = planRefundToken(c, req);
    if (!planned.ok) return { kind: 'declined', reason: planned.reason };
    const res = await postXml(this.fetch, this.apiEndpoint, planned.xml, opts.timeoutMs);
    if (res.kind === 'failed')
      return { kind: 'unknown', reason: res.sent ? res.reason : `${res.reason}; nothing was sent` };
    if (res.status < 200 || res.status > 299) return { kind: 'unknown', reason: `HTTP ${res.status}` };
    return interpretRefundReply(res.body);
  }
}
