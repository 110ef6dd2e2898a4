import type { ConnectionProvider, FieldError } from '@payments/contracts';
import type { PaymentMethodCode } from './payment-methods';

/**
 * What a business gives to connect its own account with a payment provider, and what the platform
 * shows of it afterwards (docs/api.md, Connections). The gateway's request rules and the
 * transaction-service's own check both read this table, so they cannot disagree.
 */

/** A rule of one credential field: the pattern its value must match and what a refusal says. */
export interface CredentialRule {
  pattern: RegExp;
  message: string;
}

/** Ids the provider gives as digits (Paynow's integration id, DPO's service type). */
export const CREDENTIAL_DIGITS: CredentialRule = { pattern: /^[0-9]{1,20}$/, message: 'must be 1 to 20 digits' };
/**
 * Keys, tokens and codes: printable ASCII without spaces, so a blank pasted along with a key is
 * refused instead of stored (the provider would refuse every payment signed with it).
 */
export const CREDENTIAL_TEXT: CredentialRule = {
  pattern: /^[\x21-\x7E]{1,100}$/,
  message: 'must be 1 to 100 printable characters without spaces',
};

interface ProviderSpec {
  /** The payment_method_codes the provider's account serves. */
  methods: readonly PaymentMethodCode[];
  /** Every field of the credentials, all required, in the order they are documented. */
  fields: Readonly<Record<string, CredentialRule>>;
  /**
   * The field the masked account is made from. `secret`: the field is itself a credential, so the
   * mask never shows more than half of it.
   */
  account: { field: string; prefix: string; secret: boolean };
}

export const PROVIDER_CONNECTIONS: Readonly<Record<ConnectionProvider, ProviderSpec>> = {
  paynow: {
    methods: ['ecocash', 'innbucks', 'zimswitch'],
    fields: { integration_id: CREDENTIAL_DIGITS, integration_key: CREDENTIAL_TEXT },
    account: { field: 'integration_id', prefix: 'int_', secret: false },
  },
  dpo: {
    methods: ['dpo'],
    fields: { company_token: CREDENTIAL_TEXT, service_type: CREDENTIAL_DIGITS },
    account: { field: 'company_token', prefix: 'ct_', secret: true },
  },
  ozow: {
    methods: ['ozow'],
    fields: { site_code: CREDENTIAL_TEXT, private_key: CREDENTIAL_TEXT, api_key: CREDENTIAL_TEXT },
    account: { field: 'site_code', prefix: 'site_', secret: false },
  },
};

/** Every credential field name of every provider (the log redaction masks them by name). */
export const CREDENTIAL_FIELD_NAMES: readonly string[] = [
  ...new Set(Object.values(PROVIDER_CONNECTIONS).flatMap((p) => Object.keys(p.fields))),
];

/**
 * The problems of a credentials object for `provider`, one per field in the order required,
 * type, format (the gateway's order): unknown fields, missing ones, non-strings, broken patterns.
 * Messages never quote a value.
 */
export function credentialProblems(provider: ConnectionProvider, input: unknown): FieldError[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return [{ field: 'credentials', message: 'must be a JSON object' }];
  const { fields } = PROVIDER_CONNECTIONS[provider];
  const given = input as Record<string, unknown>;
  const problems: FieldError[] = Object.keys(given)
    .filter((k) => !Object.hasOwn(fields, k))
    .map((field) => ({ field, message: 'is not a recognised field' }));
  for (const [field, rule] of Object.entries(fields)) {
    const value = Object.hasOwn(given, field) ? given[field] : undefined;
    if (value === undefined || value === null) problems.push({ field, message: 'is required' });
    else if (typeof value !== 'string') problems.push({ field, message: 'must be a string' });
    else if (!rule.pattern.test(value)) problems.push({ field, message: rule.message });
  }
  return problems;
}

/**
 * The account as the API shows it: the provider's prefix and the last 4 characters of its id
 * (`int_…1201`, `ct_…5E0A`, `site_…0001`), never more than half of an id that is a credential.
 */
export function maskedAccount(provider: ConnectionProvider, credentials: Readonly<Record<string, string>>): string {
  const { field, prefix, secret } = PROVIDER_CONNECTIONS[provider].account;
  const id = credentials[field] ?? '';
  const shown = Math.min(4, secret ? Math.floor(id.length / 2) : id.length);
  return `${prefix}…${shown > 0 ? id.slice(-shown) : ''}`;
}
