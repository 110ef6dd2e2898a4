import type { ConnectionProvider } from '@payments/contracts';
import type { Static } from '@payments/contracts/schemas';
import { PROVIDER_CONNECTIONS } from '@payments/domain';
import { isString, matches } from '../http/request-rules';
import { required, requestBody, type RequestObject } from '../http/request-schema';

/**
 * PUT /v1/connections/{provider} bodies, one per provider: its fields, all required, no other
 * field. The rules are the domain's (libs/domain provider-connections.ts), which
 * transaction-service checks again; refusals name the field, never its value.
 */
function credential(provider: ConnectionProvider, field: string) {
  const rule = PROVIDER_CONNECTIONS[provider].fields[field];
  if (!rule) throw new Error(`${provider} has no credential field ${field}`);
  return required([isString(`${field} must be a string`), matches(rule.pattern, `${field} ${rule.message}`)]);
}

/** Paynow: the integration id and key of the merchant's Paynow integration. */
export const PaynowConnectionDto = requestBody('PaynowConnectionDto', {
  integration_id: credential('paynow', 'integration_id'),
  integration_key: credential('paynow', 'integration_key'),
});

/** DPO Pay: the company token and the service type of the merchant's DPO account. */
export const DpoConnectionDto = requestBody('DpoConnectionDto', {
  company_token: credential('dpo', 'company_token'),
  service_type: credential('dpo', 'service_type'),
});

/** Ozow: the site code, private key and API key of the merchant's Ozow site. */
export const OzowConnectionDto = requestBody('OzowConnectionDto', {
  site_code: credential('ozow', 'site_code'),
  private_key: credential('ozow', 'private_key'),
  api_key: credential('ozow', 'api_key'),
});

export const CONNECTION_BODIES: Record<ConnectionProvider, RequestObject<Record<string, string>>> = {
  paynow: PaynowConnectionDto,
  dpo: DpoConnectionDto,
  ozow: OzowConnectionDto,
};
export type ConnectionCredentials = Static<(typeof CONNECTION_BODIES)[ConnectionProvider]>;
