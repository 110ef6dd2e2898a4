import type { ConnectorStatus } from '../connector';

/**
 * What one verifyToken result code means to us:
 * - `status`: a statement about the payment, mapped to our status; `recognized: false` keeps the
 *   payment where it is for an operator (never success or failed on a word we do not trust);
 * - `request-problem`: DPO could not answer about the payment (our request, our credentials, or a
 *   code this table does not know): the sync outcome is `unknown`, and the poller asks again.
 */
export type DpoVerifyMeaning =
  | { kind: 'status'; status: ConnectorStatus; recognized: boolean; explanation: string }
  | { kind: 'request-problem'; explanation: string };

/**
 * Every verifyToken code DPO documents (verifyToken page; DPO's own PHP library `Dpo.php`):
 * - 000 Transaction Paid → success.
 * - 001 Authorized: the card is authorised, not charged. We only create charge transactions
 *   (TransactionChargeType 1, DPO's default), so it is a step on the way: processing.
 * - 002 Transaction overpaid/underpaid: money moved but not the amount asked. Neither success nor
 *   failed automatically: `recognized: false`, so the payment stays where it is, the poller keeps
 *   asking and, after PROVIDER_POLL_MAX_AGE, leaves it to an operator.
 * - 003 Pending Bank and 005 Queued Authorization (listed on the current verifyToken page): the
 *   payment is on its way at the bank → processing.
 * - 007 Pending split payment (part paid) → processing.
 * - 900 Transaction not paid yet → pending (the customer has not acted).
 * - 901 declined, 903 past the payment time limit (PTL), 904 cancelled → failed.
 * - 902 Data mismatch in one of the fields: a field of our request (an optional verification field)
 *   does not match the transaction: about the request, not the payment → unknown.
 * - 801–804 (company token, request, XML), 950 (missing field) and 951 (an older page's "data
 *   mismatch – VerifyTransaction") → unknown: our request's problem.
 * DPO documents no code for "no such transaction", so no answer is taken as `not_found`: an
 * unlisted code is unknown too (see `mapDpoVerifyCode`).
 */
const STATUSES: Readonly<Record<string, { status: ConnectorStatus; recognized: boolean; explanation: string }>> = {
  '000': { status: 'success', recognized: true, explanation: 'Transaction Paid' },
  '001': { status: 'processing', recognized: true, explanation: 'Authorized' },
  '002': { status: 'processing', recognized: false, explanation: 'Transaction overpaid/underpaid' },
  '003': { status: 'processing', recognized: true, explanation: 'Pending Bank' },
  '005': { status: 'processing', recognized: true, explanation: 'Queued Authorization' },
  '007': { status: 'processing', recognized: true, explanation: 'Pending split payment' },
  '900': { status: 'pending', recognized: true, explanation: 'Transaction not paid yet' },
  '901': { status: 'failed', recognized: true, explanation: 'Transaction declined' },
  '903': { status: 'failed', recognized: true, explanation: 'The transaction passed the Payment Time Limit' },
  '904': { status: 'failed', recognized: true, explanation: 'Transaction cancelled' },
};

const REQUEST_PROBLEMS: Readonly<Record<string, string>> = {
  '801': 'Request missing company token',
  '802': 'Company token does not exist',
  '803': 'No request or error in Request type name',
  '804': 'Error in XML',
  '902': 'Data mismatch in one of the fields',
  '950': 'Request missing transaction level mandatory fields',
  '951': 'Data mismatch in one of the fields',
};

/** Every verifyToken code this table knows (for tests and documentation). */
export const DPO_VERIFY_CODES: readonly string[] = [...Object.keys(STATUSES), ...Object.keys(REQUEST_PROBLEMS)].sort();

/** Maps a verifyToken `Result` (trimmed; codes are three-digit strings, compared exactly). */
export function mapDpoVerifyCode(code: string): DpoVerifyMeaning {
  const key = code.trim();
  if (Object.prototype.hasOwnProperty.call(STATUSES, key)) return { kind: 'status', ...STATUSES[key] };
  if (Object.prototype.hasOwnProperty.call(REQUEST_PROBLEMS, key))
    return { kind: 'request-problem', explanation: REQUEST_PROBLEMS[key] };
  return { kind: 'request-problem', explanation: 'a result code DPO does not document for verifyToken' };
}

/**
 * createToken codes DPO documents as refusals: nothing was created (000 is success; 940
 * "CompanyREF already exists and paid" is NOT here: an earlier createToken of this very payment was
 * paid, see `interpretCreateReply`).
 */
export const DPO_CREATE_REFUSALS: Readonly<Record<string, string>> = {
  '801': 'Request missing company token',
  '802': 'Company token does not exist',
  '803': 'No request or error in Request type name',
  '804': 'Error in XML',
  '902': 'Request missing transaction level mandatory fields',
  '904': 'Currency not supported',
  '905': 'The transaction amount has exceeded your allowed transaction limit',
  '906': 'You exceeded your monthly transactions limit',
  '922': 'Provider does not exist',
  '923': 'Allocated money exceeds payment amount',
  '930': 'Block payment code incorrect',
  '950': 'Request missing mandatory fields',
  '960': 'Tag has been sent multiple times',
};

/** refundToken: 000 refunded; these documented codes refuse it (nothing refunded). */
export const DPO_REFUND_REFUSALS: Readonly<Record<string, string>> = {
  '801': 'Request missing company token',
  '802': 'Company token does not exist',
  '803': 'No request or error in Request type name',
  '804': 'Error in XML',
  '950': 'Request missing mandatory fields',
  '999': 'Refund failed',
};
