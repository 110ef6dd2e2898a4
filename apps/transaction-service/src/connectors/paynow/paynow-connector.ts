import type {
  Connector,
  InitiateOutcome,
  InitiateRequest,
  NotificationOutcome,
  SyncOutcome,
  SyncTarget,
} from '../connector';
import { type PaynowCredentials, maskPaynowIntegration, parsePaynowCredentials } from './paynow-credentials';
import { encodePaynowMessage, parsePaynowMessage } from './paynow-form';
import { type FetchLike, postForm } from './paynow-http';
import { interpretInitiateReply, interpretSyncReply, readStatusMessage } from './paynow-reply';
import { PAYNOW_METHODS, planInitiate, traceFields } from './paynow-request';

export const PAYNOW_DEFAULT_API_URL = 'https://www.paynow.co.zw';

export interface PaynowConnectorOptions {
  /** Defaults to Node's global fetch; tests inject one. */
  fetch?: FetchLike;
}

/**
 * Whether a poll URL is Paynow's: the API's scheme and port, and its host or a host of the same
 * domain (the API at www.paynow.co.zw may hand out poll URLs on paynow.co.zw or another subdomain).
 */
export function isPaynowUrl(url: URL, api: URL): boolean {
  if (url.protocol !== api.protocol || url.port !== api.port || url.username !== '' || url.password !== '')
    return false;
  const domain = api.hostname.replace(/^www\./, '');
  return url.hostname === api.hostname || url.hostname === domain || url.hostname.endsWith(`.${domain}`);
}

function isForm(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  return contentType.split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * Paynow (Zimbabwe), its published HTTP protocol (developers.paynow.co.zw): form-encoded POSTs,
 * SHA-512 message hashes. Paynow has no refund API, so `refund` is absent. It logs nothing itself.
 */
export class PaynowConnector implements Connector<PaynowCredentials> {
  readonly provider = 'paynow' as const;
  readonly methods = PAYNOW_METHODS;
  private readonly base: string;
  private readonly api: URL;
  private readonly fetch: FetchLike;

  /** `apiUrl`: PAYNOW_API_URL, e.g. https://www.paynow.co.zw (no path needed). Throws when not an http(s) URL. */
  constructor(apiUrl: string = PAYNOW_DEFAULT_API_URL, options: PaynowConnectorOptions = {}) {
    const url = new URL(apiUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error('the Paynow API URL must be an http(s) URL');
    this.base = url.toString().replace(/\/+$/, '');
    this.api = url;
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  parseCredentials(input: unknown) {
    return parsePaynowCredentials(input);
  }

  maskedId(c: PaynowCredentials): string {
    return maskPaynowIntegration(c);
  }

  async initiate(c: PaynowCredentials, req: InitiateRequest, opts: { timeoutMs: number }): Promise<InitiateOutcome> {
    const planned = planInitiate(c, req);
    if (!planned.ok) return { kind: 'declined', source: 'connector', reason: planned.reason };
    const { plan } = planned;
    const res = await postForm(
      this.fetch,
      `${this.base}/interface/${plan.endpoint}`,
      encodePaynowMessage(plan.fields),
      opts.timeoutMs,
    );
    if (res.kind === 'failed') return { kind: 'unknown', sent: res.sent, reason: res.reason };
    // Paynow answers its errors with 200 and Status=Error; any other status is not Paynow's answer.
    if (res.status < 200 || res.status > 299) return { kind: 'unknown', sent: true, reason: `HTTP ${res.status}` };
    return interpretInitiateReply(res.body, c.integrationKey, plan.acceptedStatus);
  }

  /**
   * By poll URL: an empty POST to it, which must be Paynow's (`isPaynowUrl`: the URL came from
   * Paynow, but a stored one is not posted anywhere else). Without one: a trace by merchanttrace.
   */
  async sync(c: PaynowCredentials, target: SyncTarget, opts: { timeoutMs: number }): Promise<SyncOutcome> {
    let url: string;
    let body = '';
    if (target.pollUrl !== null) {
      let poll: URL;
      try {
        poll = new URL(target.pollUrl);
      } catch {
        return { kind: 'unknown', reason: 'poll URL is not a URL' };
      }
      if (!isPaynowUrl(poll, this.api)) return { kind: 'unknown', reason: 'poll URL is not on the Paynow API host' };
      url = poll.toString();
    } else {
      url = `${this.base}/interface/trace`;
      body = encodePaynowMessage(traceFields(c, target.transactionId));
    }
    const res = await postForm(this.fetch, url, body, opts.timeoutMs);
    if (res.kind === 'failed') return { kind: 'unknown', reason: res.reason };
    if (res.status < 200 || res.status > 299) return { kind: 'unknown', reason: `HTTP ${res.status}` };
    return interpretSyncReply(res.body, c.integrationKey, target.pollUrl === null);
  }

  /** A status update Paynow posted to the result URL: form-encoded, every field covered by the hash. */
  verifyNotification(c: PaynowCredentials, rawBody: string, contentType: string | undefined): NotificationOutcome {
    if (!isForm(contentType)) return { kind: 'invalid', reason: 'not a form post' };
    const parsed = parsePaynowMessage(rawBody);
    if (!parsed.ok) return { kind: 'invalid', reason: parsed.reason };
    const message = readStatusMessage(parsed.fields, c.integrationKey);
    return message.ok ? { kind: 'valid', update: message.update } : { kind: 'invalid', reason: message.reason };
  }
}
