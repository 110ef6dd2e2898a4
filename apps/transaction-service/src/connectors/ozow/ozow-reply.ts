import type { InitiateOutcome, ProviderUpdate, SyncOutcome } from '../connector';
import { parseOzowAmount } from './ozow-amount';
import { parseJson } from './ozow-http';
import { safeReason } from './ozow-log';
import { mapOzowStatus } from './ozow-status';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A property without regard to the case of its name (Ozow's JSON is camelCase, its XML PascalCase). */
export function prop(o: Json, name: string): unknown {
  if (Object.hasOwn(o, name)) return o[name];
  const lower = name.toLowerCase();
  const key = Object.keys(o).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : o[key];
}

function text(o: Json, name: string): string | null {
  const v = prop(o, name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/**
 * PostPaymentRequest's answer: an errorMessage (200 or 400), or 401/403 (wrong API key), is a
 * refusal that created nothing; a url with a paymentRequestId is accepted, `pending`; anything else
 * is unknown, as the request may exist at Ozow.
 */
export function interpretPaymentRequestReply(status: number, body: string): InitiateOutcome {
  if (status === 401 || status === 403)
    return { kind: 'declined', source: 'provider', reason: `Ozow refused the API key (HTTP ${status})` };
  const json = parseJson(body);
  if (!isObject(json)) {
    if (status >= 200 && status < 300) return { kind: 'unknown', sent: true, reason: 'reply is not a JSON object' };
    return { kind: 'unknown', sent: true, reason: `HTTP ${status}` };
  }
  const error = text(json, 'errorMessage');
  const url = text(json, 'url');
  const id = text(json, 'paymentRequestId');
  if (error !== null && url === null && (status === 200 || status === 400))
    return { kind: 'declined', source: 'provider', reason: safeReason(error) || 'Ozow refused the payment request' };
  if (status < 200 || status > 299) return { kind: 'unknown', sent: true, reason: `HTTP ${status}` };
  if (error !== null) return { kind: 'unknown', sent: true, reason: 'reply has both a url and an errorMessage' };
  if (url === null || id === null)
    return { kind: 'unknown', sent: true, reason: 'reply without a url and a paymentRequestId' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'unknown', sent: true, reason: 'reply url is not a URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return { kind: 'unknown', sent: true, reason: 'reply url is not an http(s) URL' };
  return {
    kind: 'accepted',
    status: 'pending',
    providerReference: id,
    pollUrl: null,
    redirectUrl: parsed.toString(),
    instructions: null,
    authorizationCode: null,
    authorizationExpires: null,
  };
}

/** One transaction of a GetTransactionByReference answer, read; null when it is unusable. */
export interface OzowTransaction {
  transactionId: string;
  transactionReference: string;
  status: string;
  amountMinor: number;
  createdAt: number | null;
  siteCode: string | null;
}

export function readTransaction(o: unknown): OzowTransaction | null {
  if (!isObject(o)) return null;
  const transactionId = text(o, 'transactionId');
  const transactionReference = text(o, 'transactionReference');
  const status = text(o, 'status');
  const amountMinor = parseOzowAmount(prop(o, 'amount'));
  if (transactionId === null || transactionReference === null || status === null || amountMinor === null) return null;
  const created = text(o, 'createdDate');
  const createdAt = created === null ? null : Date.parse(created);
  return {
    transactionId,
    transactionReference,
    status,
    amountMinor,
    createdAt: Number.isNaN(createdAt) ? null : createdAt,
    siteCode: text(o, 'siteCode'),
  };
}

/**
 * Of up to 10 attempts under one reference (a customer may open the link, cancel, and pay on a second
 * try): a Complete one wins (money was collected; a later Cancelled attempt does not undo it);
 * otherwise the newest by createdDate, or the last listed when dates are missing.
 */
export function chooseTransaction(list: readonly OzowTransaction[]): OzowTransaction {
  const complete = list.find((t) => mapOzowStatus(t.status).status === 'success');
  if (complete) return complete;
  let best = list[list.length - 1];
  for (const t of list) if (t.createdAt !== null && (best.createdAt === null || t.createdAt > best.createdAt)) best = t;
  return best;
}

/**
 * GetTransactionByReference's answer (authenticated: ApiKey over TLS). An empty array is
 * `not_found`: Ozow holds no transaction under our reference (see the connector for what that does
 * and does not mean). Anything unreadable, or an entry of another site or another reference, is unknown.
 */
export function interpretTransactionsReply(
  status: number,
  body: string,
  siteCode: string,
  transactionId: string,
): SyncOutcome {
  if (status < 200 || status > 299) return { kind: 'unknown', reason: `HTTP ${status}` };
  const json = parseJson(body);
  if (!Array.isArray(json)) return { kind: 'unknown', reason: 'reply is not a JSON array' };
  if (json.length === 0) return { kind: 'not_found' };
  const list: OzowTransaction[] = [];
  for (const item of json) {
    const t = readTransaction(item);
    if (t === null) return { kind: 'unknown', reason: 'a transaction in the reply is incomplete' };
    if (t.transactionReference !== transactionId)
      return { kind: 'unknown', reason: 'a transaction in the reply is of another reference' };
    if (t.siteCode !== null && t.siteCode.toLowerCase() !== siteCode.toLowerCase())
      return { kind: 'unknown', reason: 'a transaction in the reply is of another site' };
    list.push(t);
  }
  const chosen = chooseTransaction(list);
  return {
    kind: 'status',
    update: updateOf(chosen.status, chosen.transactionReference, chosen.amountMinor, chosen.transactionId),
  };
}

export function updateOf(
  rawStatus: string,
  reference: string,
  amountMinor: number,
  transactionId: string,
): ProviderUpdate {
  const meaning = mapOzowStatus(rawStatus);
  return {
    providerStatus: meaning.providerStatus,
    status: meaning.status,
    recognized: meaning.recognized,
    refunded: false,
    reference,
    amountMinor,
    providerReference: transactionId,
    pollUrl: null,
  };
}
