import type { DashboardApi, LedgerEntryView } from '@payments/contracts';
import { presentLedgerEntry } from '../splits/splits.presenter';

/** A ledger entry as the dashboard shows it: /v1's fields plus its kind and the payment's public id (to link it). */
export type DashboardLedgerEntry = DashboardApi.LedgerEntryItem;

export function presentDashboardEntry(e: LedgerEntryView): DashboardLedgerEntry {
  return { ...presentLedgerEntry(e), kind: e.kind, transaction_public_id: e.transaction_public_id };
}
