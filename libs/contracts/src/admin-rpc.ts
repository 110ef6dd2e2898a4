import { LedgerRpcPatterns } from './ledger';
import { ReconcileAdminRpcPatterns } from './reconcile';
import { WebhookAdminRpcPatterns } from './webhooks';

/** Operator actions on refunds (transaction-service). */
export const RefundAdminRpcPatterns = {
  /** Completes or fails a refund waiting for an operator (a provider without a refund API). */
  Resolve: 'admin.refunds.resolve',
} as const;

export interface ResolveRefundBody {
  refund_id: string;
  outcome: 'success' | 'failed';
  /** What the operator did (shown as the refund's message). */
  note?: string;
}

/**
 * Patterns only the gateway's admin API may call: services refuse them unless the signed RPC
 * envelope carries the admin scope (see docs/security.md). A new operator pattern belongs here.
 */
export const ADMIN_RPC_PATTERNS = [
  LedgerRpcPatterns.SettlementRun,
  LedgerRpcPatterns.InvoiceMarkPaid,
  ...Object.values(ReconcileAdminRpcPatterns),
  ...Object.values(WebhookAdminRpcPatterns),
  ...Object.values(RefundAdminRpcPatterns),
] as const;
export type AdminRpcPattern = (typeof ADMIN_RPC_PATTERNS)[number];
