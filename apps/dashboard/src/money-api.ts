/** The dashboard API's payment links and splits answers (amounts in minor units; shapes from the contracts lib). */

export type {
  BusinessNames,
  CurrencyTotal,
  InvoiceItem as Invoice,
  LedgerEntryItem as LedgerEntry,
  LedgerSummary,
  LinkItem as PaymentLink,
  LinkSplitItem as LinkSplit,
  SplitConfigItem as SplitConfig,
} from '@payments/contracts/dashboard-api';
import type { BusinessNames } from '@payments/contracts/dashboard-api';

/** A partner business as the splits pages show it: its name and id, or the id alone when the name is not known. */
export function partnerLabel(id: number, names?: BusinessNames): string {
  const name = names && Object.hasOwn(names, String(id)) ? names[String(id)] : undefined;
  return name ? `${name} (business ${id})` : `Business ${id}`;
}

/** "YYYY-MM-DD HH:MM:SS" (UTC) → an ISO 8601 instant that `dateTime` can show. */
export function fromSpecDate(s: string): string {
  return `${s.replace(' ', 'T')}Z`;
}
