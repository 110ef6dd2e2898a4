import type { ConnectorStatus } from '../connector';

/**
 * What one verifyToken code means: a statement about the payment (`recognized: false` keeps it
 * where it is, for an operator), or a request problem (ours, or an unknown code): the sync is
 * `unknown` and the poller asks again.
 */
export type DpoVerifyMeaning =
  | { kind: 'status'; status: ConnectorStatus; recognized: boolean; explanation: string }
  | { kind: 'request-problem'; explanation: string };

/**
 * Every verifyToken code DPO documents. 001 Authorized is only a step (we create charge transactions only); 002
 * (over/underpaid) is never made success or failed automatically: the poller keeps asking, then leaves it to an
 * operator. DPO has no code for "no such transaction", so nothing maps to `not_found`.
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
