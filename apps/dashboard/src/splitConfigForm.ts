import { money, toMinor } from './format';
import { percentToBasisPoints } from './linkForm';
import type { SplitConfig } from './money-api';

/** A split config as typed into its form: amounts in major units, percentages as "2.5". */
export interface SplitConfigForm {
  partner_business_id: string;
  currency: string;
  split_type: 'percentage' | 'fixed';
  split_value: string;
  split_role: 'fee' | 'principal';
  description: string;
}

/** POST /v1/splits/config's body. */
export interface NewSplitConfigBody {
  partner_business_id: number;
  currency: string;
  split_type: 'percentage' | 'fixed';
  split_value: number;
  split_role: 'fee' | 'principal';
  description?: string;
}

/**
 * PUT /v1/splits/config/{id}'s body (the dashboard's PATCH): partner and currency never change;
 * null removes the description.
 */
export interface SplitConfigChanges {
  split_type?: 'percentage' | 'fixed';
  split_value?: number;
  split_role?: 'fee' | 'principal';
  description?: string | null;
}

export const EMPTY_SPLIT_CONFIG: SplitConfigForm = {
  partner_business_id: '',
  currency: 'USD',
  split_type: 'percentage',
  split_value: '',
  split_role: 'fee',
  description: '',
};
const DESCRIPTION_MAX = 500;

/** Minor units as typed major units, without grouping: 1250 USD → "12.50", 7 JPY → "7". */
export function majorText(minor: number, currency: string): string {
  const digits = money(0, currency).split(' ')[0].split('.')[1]?.length ?? 0;
  return (minor / 10 ** digits).toFixed(digits);
}

/** A config's share in words: "2.5 % of USD payments", "1.50 USD per payment". */
export function configShareText(c: Pick<SplitConfig, 'split_type' | 'split_value' | 'currency'>): string {
  return c.split_type === 'percentage' ? `${shareText(c)} of ${c.currency} payments` : `${shareText(c)} per payment`;
}

/** A share in words: basis points as a percentage, or a fixed amount in the currency. */
export function shareText(c: Pick<SplitConfig, 'split_type' | 'split_value' | 'currency'>): string {
  return c.split_type === 'percentage'
    ? `${(c.split_value / 100).toLocaleString('en', { maximumFractionDigits: 2 })} %`
    : money(c.split_value, c.currency);
}

/** An existing config in its form, to edit it. */
export function splitConfigForm(c: SplitConfig): SplitConfigForm {
  const value = c.split_type === 'percentage' ? String(c.split_value / 100) : majorText(c.split_value, c.currency);
  return {
    partner_business_id: String(c.partner_business_id),
    currency: c.currency,
    split_type: c.split_type,
    split_value: value,
    split_role: c.split_role,
    description: c.description ?? '',
  };
}

function splitValue(form: SplitConfigForm): number | { error: string } {
  const value =
    form.split_type === 'percentage'
      ? percentToBasisPoints(form.split_value)
      : toMinor(form.split_value, form.currency);
  if (value !== null && value >= 1) return value;
  return {
    error:
      form.split_type === 'percentage'
        ? 'Enter a percentage above 0 and at most 100, such as 2.5.'
        : `Enter an amount in ${form.currency}, such as 3.00.`,
  };
}

/**
 * The form as POST /v1/splits/config's body, or the first problem in words. Only what a person
 * can get wrong typing is checked here; the API applies every rule and names each field.
 */
export function newSplitConfigBody(form: SplitConfigForm): { body: NewSplitConfigBody } | { error: string } {
  const partner = form.partner_business_id.trim();
  if (!/^[1-9]\d{0,9}$/.test(partner)) return { error: 'Enter the partner’s business id (a whole number).' };
  const value = splitValue(form);
  if (typeof value !== 'number') return value;
  const description = form.description.trim();
  if (description.length > DESCRIPTION_MAX)
    return { error: `The description may have at most ${DESCRIPTION_MAX} characters.` };
  const body: NewSplitConfigBody = {
    partner_business_id: Number(partner),
    currency: form.currency,
    split_type: form.split_type,
    split_value: value,
    split_role: form.split_role,
  };
  if (description) body.description = description;
  return { body };
}

/** Only what changed, as the update's body ({} when nothing did). */
export function splitConfigChanges(
  current: SplitConfig,
  form: SplitConfigForm,
): { body: SplitConfigChanges } | { error: string } {
  const value = splitValue(form);
  if (typeof value !== 'number') return value;
  const description = form.description.trim();
  if (description.length > DESCRIPTION_MAX)
    return { error: `The description may have at most ${DESCRIPTION_MAX} characters.` };
  const body: SplitConfigChanges = {};
  if (form.split_type !== current.split_type) body.split_type = form.split_type;
  if (value !== current.split_value || body.split_type) body.split_value = value;
  if (form.split_role !== current.split_role) body.split_role = form.split_role;
  if (description !== (current.description ?? '')) body.description = description === '' ? null : description;
  return { body };
}
