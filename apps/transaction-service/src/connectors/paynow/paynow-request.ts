import type { InitiateRequest } from '../connector';
import { PAYNOW_CURRENCIES, formatPaynowAmount } from './paynow-amount';
import type { PaynowCredentials } from './paynow-credentials';
import type { PaynowFields } from './paynow-form';
import { withHash } from './paynow-hash';

/** Express checkout with a wallet number: a USSD push (EcoCash, OneMoney) or an authorization code (InnBucks). */
export const PAYNOW_WALLET_METHODS: readonly string[] = ['ecocash', 'onemoney', 'innbucks'];
/** Cards: the customer pays on Paynow's page (web flow), or, with a stored token, express checkout. */
export const PAYNOW_CARD_METHODS: readonly string[] = ['zimswitch', 'vmc'];
export const PAYNOW_METHODS: readonly string[] = [...PAYNOW_WALLET_METHODS, ...PAYNOW_CARD_METHODS];

export type PaynowEndpoint = 'initiatetransaction' | 'remotetransaction';

/** A request ready to send, and what an accepted reply means for it. */
export interface PaynowRequestPlan {
  endpoint: PaynowEndpoint;
  /** In send order, `hash` last. */
  fields: PaynowFields;
  /** Our status once Paynow accepts it: `pending` while the customer still has to act (redirect, code). */
  acceptedStatus: 'pending' | 'processing';
}

export type PlanResult = { ok: true; plan: PaynowRequestPlan } | { ok: false; reason: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** merchanttrace: "up to 32 characters", unique per merchant; printable ASCII keeps it the same on both sides. */
const TRACE = /^[\x21-\x7e]{1,32}$/;

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

function refusal(req: InitiateRequest, method: string): string | null {
  if (!PAYNOW_METHODS.includes(method)) return `method ${JSON.stringify(req.method)} is not a Paynow method`;
  if (!PAYNOW_CURRENCIES.includes(req.currency))
    return `currency ${JSON.stringify(req.currency)} is not one Paynow takes`;
  if (!Number.isSafeInteger(req.amountMinor) || req.amountMinor <= 0)
    return 'amount must be a positive whole number of minor units';
  if (!TRACE.test(req.transactionId))
    return 'transaction id must be 1 to 32 printable ASCII characters (Paynow merchanttrace)';
  if (req.reference === '' || req.reference !== req.reference.trim())
    return 'reference must be non-empty, without surrounding spaces';
  if (!isHttpUrl(req.resultUrl) || !isHttpUrl(req.returnUrl)) return 'result and return URLs must be http(s) URLs';
  const express = PAYNOW_WALLET_METHODS.includes(method) || Boolean(req.paymentToken);
  if (express && !EMAIL.test(req.email.trim())) return 'express checkout needs the customer e-mail (authemail)';
  if (PAYNOW_WALLET_METHODS.includes(method) && !req.phone?.trim()) return `${method} needs the wallet's phone number`;
  if (req.paymentToken && !PAYNOW_CARD_METHODS.includes(method)) return 'a card token is for zimswitch or vmc only';
  return null;
}

/**
 * The initiate request, fields in the PHP SDK's order, hash last: Paynow hashes values in the order received. Wallets
 * and card tokens go to /interface/remotetransaction; other cards to /interface/initiatetransaction (no method).
 */
export function planInitiate(c: PaynowCredentials, req: InitiateRequest): PlanResult {
  const method = req.method.trim().toLowerCase();
  const refused = refusal(req, method);
  if (refused !== null) return { ok: false, reason: refused };
  const token = req.paymentToken?.trim() || null;
  const wallet = PAYNOW_WALLET_METHODS.includes(method);
  const fields: Array<readonly [string, string]> = [
    ['resulturl', req.resultUrl],
    ['returnurl', req.returnUrl],
    ['reference', req.reference],
    ['amount', formatPaynowAmount(req.amountMinor)],
    ['id', c.integrationId],
    ['additionalinfo', req.description?.trim() ?? ''],
    ['authemail', req.email.trim()],
    ['status', 'Message'],
  ];
  if (wallet) fields.push(['phone', (req.phone ?? '').trim()], ['method', method]);
  if (token !== null) fields.push(['method', method], ['token', token]);
  fields.push(['merchanttrace', req.transactionId]);
  const endpoint: PaynowEndpoint = wallet || token !== null ? 'remotetransaction' : 'initiatetransaction';
  const acceptedStatus = endpoint === 'initiatetransaction' || method === 'innbucks' ? 'pending' : 'processing';
  return { ok: true, plan: { endpoint, fields: withHash(fields, c.integrationKey), acceptedStatus } };
}

/** The trace request (Paynow docs: "Using Merchant Trace"): id, merchanttrace, status, hash. */
export function traceFields(c: PaynowCredentials, transactionId: string): PaynowFields {
  return withHash(
    [
      ['id', c.integrationId],
      ['merchanttrace', transactionId],
      ['status', 'Message'],
    ],
    c.integrationKey,
  );
}
