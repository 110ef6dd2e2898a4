/** Shapes of the dashboard API's payment links and splits answers (amounts in minor units). */

export interface LinkSplit {
  business_id: number;
  type: 'percentage' | 'fixed';
  /** Basis points for a percentage (1250 = 12.5 %), minor units for a fixed amount. */
  value: number;
  description: string | null;
}

export interface PaymentLink {
  payment_link_id: string;
  hosted_payment_link: string;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  description: string;
  /** The merchant's own notes (never shown to the customer). */
  metadata: Record<string, string>;
  splits: LinkSplit[];
  active: boolean;
  date_created: string;
  date_deactivated: string | null;
}

/** Dates of the splits answers are "YYYY-MM-DD HH:MM:SS" in UTC, as /v1/splits gives them. */
export interface LedgerEntry {
  public_id: string;
  kind: 'split' | 'reversal';
  transaction_public_id: string;
  split_config_id: number | null;
  creditor_business_id: number;
  debtor_business_id: number;
  amount: number;
  currency: string;
  status: 'pending' | 'invoiced' | 'settled';
  invoice_reference: string | null;
  settlement_date: string | null;
  date_created: string;
}

export interface SplitConfig {
  public_id: string;
  partner_business_id: number;
  split_type: 'percentage' | 'fixed';
  split_value: number;
  split_role: 'fee' | 'principal';
  currency: string;
  description: string | null;
  is_active: boolean;
  date_created: string;
}

export interface CurrencyTotal {
  currency: string;
  total: number;
}

export interface LedgerSummary {
  summary: { owed_to_you: CurrencyTotal[]; you_owe: CurrencyTotal[] };
  by_counterparty: { business_id: number; currency: string; owed_to_you: number; you_owe: number }[];
  business_names: BusinessNames;
}

export interface Invoice {
  invoice_reference: string;
  debtor_business_id: number;
  creditor_business_id: number;
  currency: string;
  amount: number;
  status: 'issued' | 'paid';
  entry_count: number;
  period_end: string;
  date_created: string;
  date_paid: string | null;
}

/** Partner business id (as text) → its name, as each splits answer gives them (`business_names`). */
export type BusinessNames = Record<string, string>;

/** A partner business as the splits pages show it: its name and id, or the id alone when the name is not known. */
export function partnerLabel(id: number, names: BusinessNames | undefined): string {
  const name = names && Object.hasOwn(names, String(id)) ? names[String(id)] : undefined;
  return name ? `${name} (business ${id})` : `Business ${id}`;
}

/** "YYYY-MM-DD HH:MM:SS" (UTC) → an ISO 8601 instant that `dateTime` can show. */
export function fromSpecDate(s: string): string {
  return `${s.replace(' ', 'T')}Z`;
}
