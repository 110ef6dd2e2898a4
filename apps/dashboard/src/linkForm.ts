import { toMinor } from './format';
import { partnerLabel } from './money-api';

/** The currencies the API takes (it refuses any other with the full list). */
export const CURRENCIES = [
  'USD',
  'ZWG',
  'ZAR',
  'BWP',
  'ZMW',
  'MZN',
  'NAD',
  'KES',
  'NGN',
  'GHS',
  'EUR',
  'GBP',
  'JPY',
  'UGX',
  'RWF',
  'BHD',
  'KWD',
];

/** A split row as typed into the create-link form. */
export interface SplitRow {
  business_id: string;
  type: 'percentage' | 'fixed';
  /** A percentage ("12.5") or an amount in major units ("3.00"). */
  value: string;
}

export interface LinkForm {
  description: string;
  amount: string;
  currency: string;
  splits: SplitRow[];
}

export interface LinkBody {
  description: string;
  amount: number;
  currency: string;
  splits: { business_id: number; type: 'percentage' | 'fixed'; value: number }[];
}

/** "12.5" → 1250 basis points; up to two decimals, more than 0 and at most 100 %. */
export function percentToBasisPoints(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps >= 1 && bps <= 10_000 ? bps : null;
}

/**
 * The form as the API's body (POST /v1/links's), or the first problem in words. Only what a
 * person can get wrong typing is checked here; the API applies every rule and names each field.
 */
export function linkBody(form: LinkForm): { body: LinkBody } | { error: string } {
  const description = form.description.trim();
  if (!description) return { error: 'Enter a description: the customer sees it on the payment page.' };
  const amount = toMinor(form.amount, form.currency);
  if (amount === null || amount < 1) return { error: `Enter an amount in ${form.currency}, such as 25.00.` };
  const splits: LinkBody['splits'] = [];
  for (const [i, s] of form.splits.entries()) {
    const n = i + 1;
    if (!/^[1-9]\d{0,9}$/.test(s.business_id.trim()))
      return { error: `Split ${n}: enter the partner's business id (a whole number).` };
    const value = s.type === 'percentage' ? percentToBasisPoints(s.value) : toMinor(s.value, form.currency);
    if (value === null || value < 1) {
      return {
        error:
          s.type === 'percentage'
            ? `Split ${n}: enter a percentage above 0 and at most 100, such as 12.5.`
            : `Split ${n}: enter an amount in ${form.currency}, such as 3.00.`,
      };
    }
    splits.push({ business_id: Number(s.business_id.trim()), type: s.type, value });
  }
  return { body: { description, amount, currency: form.currency, splits } };
}

/** A link split in words: "12.5 % to Business 7" or "3.00 USD to Business 9". */
export function splitText(
  s: { business_id: number; type: 'percentage' | 'fixed'; value: number },
  currency: string,
  money: (minor: number, currency: string) => string,
): string {
  const share =
    s.type === 'percentage'
      ? `${(s.value / 100).toLocaleString('en', { maximumFractionDigits: 2 })} %`
      : money(s.value, currency);
  return `${share} to ${partnerLabel(s.business_id)}`;
}

/** A metadata entry as typed into the edit-link form. */
export interface MetadataRow {
  key: string;
  value: string;
}

export interface LinkEditForm {
  description: string;
  metadata: MetadataRow[];
}

/** What the edit-link form may change: POST /v1/links/{id}'s body (the dashboard's PATCH). */
export interface LinkEditBody {
  description?: string;
  /** Keys set to a value, keys removed ("" removes one), or "" to remove them all. */
  metadata?: Record<string, string> | '';
}

export function linkEditForm(link: { description: string; metadata: Record<string, string> }): LinkEditForm {
  return {
    description: link.description,
    metadata: Object.entries(link.metadata).map(([key, value]) => ({ key, value })),
  };
}

/**
 * Only what changed, as the API's update body: a new description, keys added or changed, and
 * keys no longer in the form removed (all of them with one ""). `body` is {} when nothing changed.
 */
export function linkEditBody(
  current: { description: string; metadata: Record<string, string> },
  form: LinkEditForm,
): { body: LinkEditBody } | { error: string } {
  const description = form.description.trim();
  if (!description) return { error: 'Enter a description: a link always has one (the customer sees it).' };
  const next = new Map<string, string>();
  for (const [i, row] of form.metadata.entries()) {
    const key = row.key.trim();
    if (!key) return { error: `Metadata row ${i + 1}: enter a key, or remove the row.` };
    if (/[[\]]/.test(key)) return { error: `Metadata row ${i + 1}: a key cannot hold square brackets.` };
    if (next.has(key)) return { error: `Metadata row ${i + 1}: the key “${key}” is already used above.` };
    if (row.value === '') return { error: `Metadata row ${i + 1}: enter a value, or remove the row.` };
    next.set(key, row.value);
  }
  const body: LinkEditBody = {};
  if (description !== current.description) body.description = description;
  // Maps and fromEntries, not plain objects: a merchant's key may be "__proto__".
  const had = new Map(Object.entries(current.metadata));
  if (next.size === 0 && had.size > 0) body.metadata = '';
  else {
    const removed = [...had.keys()].filter((k) => !next.has(k)).map((k) => [k, ''] as const);
    const changed = [...next].filter(([k, v]) => had.get(k) !== v);
    if (removed.length + changed.length > 0) body.metadata = Object.fromEntries([...removed, ...changed]);
  }
  return { body };
}
