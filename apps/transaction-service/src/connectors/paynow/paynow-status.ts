import type { ConnectorStatus } from '../connector';

/** What one Paynow status word means to us. */
export interface PaynowStatusMeaning {
  /** The word as Paynow wrote it, trimmed. */
  providerStatus: string;
  status: ConnectorStatus;
  /** False for a word this table does not know: mapped to `processing`, never final. */
  recognized: boolean;
  /** Paid at Paynow and later refunded there. */
  refunded: boolean;
}

/**
 * Every status Paynow documents ("Status Update"), plus test mode's Failed and the older SDK's
 * Awaiting Redirect and Created But Not Paid. Keys are lower-case with single spaces.
 */
const TABLE: Readonly<Record<string, Omit<PaynowStatusMeaning, 'providerStatus' | 'recognized'>>> = {
  // Paid: Awaiting Delivery and Delivered hold the funds in suspense, but the customer has paid.
  paid: { status: 'success', refunded: false },
  'awaiting delivery': { status: 'success', refunded: false },
  delivered: { status: 'success', refunded: false },
  // Paid, then refunded at Paynow: the money was collected, so `success`; `refunded` tells the caller.
  refunded: { status: 'success', refunded: true },
  // Final refusals. Disputed holds the funds while the customer's dispute runs: not money the
  // merchant may count on (the brief's call; see the connector's report for the trade-off).
  cancelled: { status: 'failed', refunded: false },
  failed: { status: 'failed', refunded: false },
  disputed: { status: 'failed', refunded: false },
  // At Paynow, not paid yet.
  created: { status: 'processing', refunded: false },
  sent: { status: 'processing', refunded: false },
  'created but not paid': { status: 'processing', refunded: false },
  // Created, but the customer has not even been sent to pay.
  'awaiting redirect': { status: 'pending', refunded: false },
};

/** Every status word the table knows, lower-case (for tests and documentation). */
export const PAYNOW_KNOWN_STATUSES: readonly string[] = Object.keys(TABLE);

/** Maps a Paynow status word, without regard to case or surrounding and repeated spaces. */
export function mapPaynowStatus(raw: string): PaynowStatusMeaning {
  const providerStatus = raw.trim();
  const key = providerStatus.toLowerCase().replace(/\s+/g, ' ');
  const known = Object.prototype.hasOwnProperty.call(TABLE, key) ? TABLE[key] : undefined;
  if (known === undefined) return { providerStatus, status: 'processing', recognized: false, refunded: false };
  return { providerStatus, recognized: true, ...known };
}
