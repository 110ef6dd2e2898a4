import type { ConnectorStatus } from '../connector';

/** What one Ozow payment status word means to us. */
export interface OzowStatusMeaning {
  providerStatus: string;
  status: ConnectorStatus;
  /** False for a word this table does not know: mapped to `processing`, never final. */
  recognized: boolean;
}

/**
 * Every payment status Ozow documents (hub.ozow.com "Outcome"), keys lower-case.
 * PendingInvestigation (the bank's result was inconclusive, checked by hand at Ozow) and Pending
 * mean the customer acted but the outcome is not known yet.
 */
const TABLE: Readonly<Record<string, ConnectorStatus>> = {
  complete: 'success',
  cancelled: 'failed',
  error: 'failed',
  abandoned: 'failed',
  pendinginvestigation: 'processing',
  pending: 'processing',
};

export const OZOW_KNOWN_STATUSES: readonly string[] = Object.keys(TABLE);

/** Maps an Ozow payment status, without regard to case or surrounding spaces. */
export function mapOzowStatus(raw: string): OzowStatusMeaning {
  const providerStatus = raw.trim();
  const key = providerStatus.toLowerCase();
  const status = Object.hasOwn(TABLE, key) ? TABLE[key] : undefined;
  return status === undefined
    ? { providerStatus, status: 'processing', recognized: false }
    : { providerStatus, status, recognized: true };
}

/**
 * Refund statuses (hub.ozow.com "Refund processing"): Complete → success; Failed, Cancelled and
 * Returned (the bank sent the money back) → failed; Pending and Submitted, and any word this table
 * does not know, leave the refund pending.
 */
const REFUND_TABLE: Readonly<Record<string, 'pending' | 'success' | 'failed'>> = {
  complete: 'success',
  failed: 'failed',
  cancelled: 'failed',
  returned: 'failed',
  pending: 'pending',
  submitted: 'pending',
};

export const OZOW_KNOWN_REFUND_STATUSES: readonly string[] = Object.keys(REFUND_TABLE);

export function mapOzowRefundStatus(raw: string): {
  providerStatus: string;
  status: 'pending' | 'success' | 'failed';
  recognized: boolean;
} {
  const providerStatus = raw.trim();
  const key = providerStatus.toLowerCase();
  const status = Object.hasOwn(REFUND_TABLE, key) ? REFUND_TABLE[key] : undefined;
  return { providerStatus, status: status ?? 'pending', recognized: status !== undefined };
}
