import type { InitiateOutcome, RefundOutcome, SyncOutcome } from '../connector';
import { parseDpoAmount } from './dpo-amount';
import { safeReason } from './dpo-log';
import { DPO_CREATE_REFUSALS, DPO_REFUND_REFUSALS, mapDpoVerifyCode } from './dpo-status';
import { type Api3gFields, fieldOf, parseApi3g } from './dpo-xml';

/** DPO's result code and explanation (made safe to store and log), or why there is none. */
function resultOf(
  body: string,
): { ok: true; code: string; explanation: string; fields: Api3gFields } | { ok: false; reason: string } {
  const parsed = parseApi3g(body);
  if (!parsed.ok) return { ok: false, reason: `reply unreadable: ${parsed.reason}` };
  const code = fieldOf(parsed.fields, 'Result');
  if (code === undefined || code === '') return { ok: false, reason: 'reply without a Result' };
  if (!/^\d{3}$/.test(code)) return { ok: false, reason: 'reply whose Result is not a three-digit code' };
  return {
    ok: true,
    code,
    explanation: safeReason(fieldOf(parsed.fields, 'ResultExplanation') ?? ''),
    fields: parsed.fields,
  };
}

/**
 * createToken's reply: 000 with a TransToken → accepted, pending; a documented refusal → declined.
 * 940 "CompanyREF already exists and paid" → unknown: an earlier createToken of this very payment
 * was paid, and the poller finds it by CompanyRef.
 */
export function interpretCreateReply(body: string, payPageUrl: (token: string) => string): InitiateOutcome {
  const result = resultOf(body);
  if (!result.ok) return { kind: 'unknown', sent: true, reason: result.reason };
  const { code, explanation, fields } = result;
  if (code === '000') {
    const token = fieldOf(fields, 'TransToken');
    if (token === undefined || token === '')
      return { kind: 'unknown', sent: true, reason: 'createToken answered 000 without a TransToken' };
    return {
      kind: 'accepted',
      status: 'pending',
      providerReference: token,
      pollUrl: null,
      redirectUrl: payPageUrl(token),
      instructions: null,
      authorizationCode: null,
      authorizationExpires: null,
    };
  }
  if (code === '940')
    return {
      kind: 'unknown',
      sent: true,
      reason: 'DPO says this payment (CompanyRef) already exists and was paid: it is checked by CompanyRef',
    };
  const documented = DPO_CREATE_REFUSALS[code];
  if (documented !== undefined)
    return { kind: 'declined', source: 'provider', reason: `${explanation || documented} (DPO ${code})` };
  return { kind: 'unknown', sent: true, reason: `createToken answered an undocumented result code ${code}` };
}

/**
 * verifyToken's reply. A paid answer (000) must carry a TransactionAmount that reads, never
 * ignored. verifyToken does not always echo CompanyRef, so `reference` is null without one.
 */
export function interpretVerifyReply(body: string, askedToken: string | null): SyncOutcome {
  const result = resultOf(body);
  if (!result.ok) return { kind: 'unknown', reason: result.reason };
  const { code, explanation, fields } = result;
  const meaning = mapDpoVerifyCode(code);
  if (meaning.kind === 'request-problem')
    return { kind: 'unknown', reason: `verifyToken answered ${code}: ${explanation || meaning.explanation}` };
  const amountText = fieldOf(fields, 'TransactionAmount');
  const amountMinor = amountText === undefined || amountText === '' ? null : parseDpoAmount(amountText);
  if (amountText !== undefined && amountText !== '' && amountMinor === null)
    return { kind: 'unknown', reason: `verifyToken ${code} with a malformed TransactionAmount` };
  if (meaning.status === 'success' && amountMinor === null)
    return { kind: 'unknown', reason: 'verifyToken 000 without a TransactionAmount' };
  const reference = fieldOf(fields, 'CompanyRef');
  const token = fieldOf(fields, 'TransactionToken');
  const currency = fieldOf(fields, 'TransactionCurrency');
  return {
    kind: 'status',
    update: {
      providerStatus: `${meaning.explanation} (${code})`,
      status: meaning.status,
      recognized: meaning.recognized,
      refunded: false,
      reference: reference === undefined || reference === '' ? null : reference,
      amountMinor,
      currency: currency === undefined || currency === '' ? null : currency,
      providerReference: askedToken ?? (token === undefined || token === '' ? null : token),
      pollUrl: null,
    },
  };
}

/**
 * refundToken's reply: 000 → succeeded; a documented refusal (999 "Refund failed – …" and the
 * request errors) → declined; anything else → unknown.
 */
export function interpretRefundReply(body: string): RefundOutcome {
  const result = resultOf(body);
  if (!result.ok) return { kind: 'unknown', reason: result.reason };
  const { code, explanation, fields } = result;
  if (code === '000') {
    const ref = fieldOf(fields, 'TransRef') ?? fieldOf(fields, 'RefundRef');
    return { kind: 'succeeded', providerRefundId: ref === undefined || ref === '' ? null : ref };
  }
  const documented = DPO_REFUND_REFUSALS[code];
  if (documented !== undefined) return { kind: 'declined', reason: `${explanation || documented} (DPO ${code})` };
  return { kind: 'unknown', reason: `refundToken answered an undocumented result code ${code}` };
}
