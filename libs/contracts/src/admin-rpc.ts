import { LedgerRpcPatterns } from './ledger';
import { ReconcileAdminRpcPatterns } from './reconcile';
import { WebhookAdminRpcPatterns } from './webhooks';

/**
 * Patterns only the gateway's admin API may call: services refuse them unless the signed RPC
 * envelope carries the admin scope (see docs/security.md). A new operator pattern belongs here.
 */
export const ADMIN_RPC_PATTERNS = [
  LedgerRpcPatterns.SettlementRun,
  LedgerRpcPatterns.InvoiceMarkPaid,
  ...Object.values(ReconcileAdminRpcPatterns),
  ...Object.values(WebhookAdminRpcPatterns),
] as const;
export type AdminRpcPattern = (typeof ADMIN_RPC_PATTERNS)[number];
