import type { InitiateOutcome, ProviderUpdate, SyncOutcome } from '../connector';
import { parsePaynowAmount } from './paynow-amount';
import { type PaynowFields, fieldOf, parsePaynowMessage } from './paynow-form';
import { checkHash } from './paynow-hash';
import { safeReason } from './paynow-log';
import { mapPaynowStatus } from './paynow-status';

/** The error text of an Error reply, made safe to store and log. */
function errorText(fields: PaynowFields): string {
  const text = safeReason(fieldOf(fields, 'error') ?? '');
  return text === '' ? 'Paynow answered Error without a message' : text;
}

function orNull(v: string | undefined): string | null {
  return v === undefined || v.trim() === '' ? null : v;
}

/**
 * Reads Paynow's answer to an initiate request. `Status=Error` without a hash is a refusal (every
 * SDK skips the check for it); any other reply must carry a hash that verifies, or it is unknown:
 * never accepted on an unsigned word, and the payment may exist at Paynow.
 */
export function interpretInitiateReply(
  body: string,
  integrationKey: string,
  acceptedStatus: 'pending' | 'processing',
): InitiateOutcome {
  const parsed = parsePaynowMessage(body);
  if (!parsed.ok) return { kind: 'unknown', sent: true, reason: `reply unreadable: ${parsed.reason}` };
  const { fields } = parsed;
  const status = (fieldOf(fields, 'status') ?? '').trim().toLowerCase();
  const hash = checkHash(fields, integrationKey);
  if (status === 'error') {
    if (hash === 'mismatch') return { kind: 'unknown', sent: true, reason: 'Error reply whose hash does not verify' };
    return { kind: 'declined', source: 'provider', reason: errorText(fields) };
  }
  if (status !== 'ok')
    return {
      kind: 'unknown',
      sent: true,
      reason: status === '' ? 'reply without a status' : `unexpected reply status ${safeReason(status)}`,
    };
  if (hash !== 'valid')
    return {
      kind: 'unknown',
      sent: true,
      reason: hash === 'missing' ? 'Ok reply without a hash' : 'Ok reply whose hash does not verify',
    };
  return {
    kind: 'accepted',
    status: acceptedStatus,
    providerReference: orNull(fieldOf(fields, 'paynowreference')),
    pollUrl: orNull(fieldOf(fields, 'pollurl')),
    redirectUrl: orNull(fieldOf(fields, 'browserurl')),
    instructions: orNull(fieldOf(fields, 'instructions')),
    authorizationCode: orNull(fieldOf(fields, 'authorizationcode')),
    authorizationExpires: orNull(fieldOf(fields, 'authorizationexpires')),
  };
}

export type StatusMessage = { ok: true; update: ProviderUpdate } | { ok: false; reason: string };

/**
 * A status message (status update, poll or trace reply), its fields in whatever order Paynow sent
 * them (the docs' examples differ), all covered by the hash. The hash is checked first; reasons
 * never quote values.
 */
export function readStatusMessage(fields: PaynowFields, integrationKey: string): StatusMessage {
  const hash = checkHash(fields, integrationKey);
  if (hash !== 'valid') return { ok: false, reason: hash === 'missing' ? 'no hash' : 'hash does not verify' };
  for (const key of ['reference', 'amount', 'paynowreference', 'pollurl', 'status']) {
    if (fieldOf(fields, key) === undefined) return { ok: false, reason: `field ${key} missing` };
  }
  const reference = fieldOf(fields, 'reference') as string;
  const rawStatus = fieldOf(fields, 'status') as string;
  if (reference.trim() === '' || rawStatus.trim() === '') return { ok: false, reason: 'reference or status empty' };
  const amountMinor = parsePaynowAmount(fieldOf(fields, 'amount') as string);
  if (amountMinor === null) return { ok: false, reason: 'amount malformed' };
  const meaning = mapPaynowStatus(rawStatus);
  return {
    ok: true,
    update: {
      providerStatus: meaning.providerStatus,
      status: meaning.status,
      recognized: meaning.recognized,
      refunded: meaning.refunded,
      reference,
      amountMinor,
      providerReference: orNull(fieldOf(fields, 'paynowreference')),
      pollUrl: orNull(fieldOf(fields, 'pollurl')),
    },
  };
}

/**
 * Reads a poll or trace reply. `status=NotFound` (trace only) must carry a hash that verifies to
 * mean "not found"; `status=Error` is unknown ("a trace error does not necessarily mean that the
 * transaction was not found").
 */
export function interpretSyncReply(body: string, integrationKey: string, allowNotFound: boolean): SyncOutcome {
  const parsed = parsePaynowMessage(body);
  if (!parsed.ok) return { kind: 'unknown', reason: `reply unreadable: ${parsed.reason}` };
  const status = (fieldOf(parsed.fields, 'status') ?? '').trim().toLowerCase();
  if (status === 'error') return { kind: 'unknown', reason: `Paynow answered Error: ${errorText(parsed.fields)}` };
  if (status === 'notfound' && allowNotFound) {
    const hash = checkHash(parsed.fields, integrationKey);
    return hash === 'valid'
      ? { kind: 'not_found' }
      : { kind: 'unknown', reason: `NotFound reply: ${hash === 'missing' ? 'no hash' : 'hash does not verify'}` };
  }
  const message = readStatusMessage(parsed.fields, integrationKey);
  return message.ok
    ? { kind: 'status', update: message.update }
    : { kind: 'unknown', reason: `status reply refused: ${message.reason}` };
}
