import { applyDecorators } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';
import type { ConnectionProvider } from '@payments/contracts';
import { PROVIDER_CONNECTIONS } from '@payments/domain';

/**
 * PUT /v1/connections/{provider} bodies, one class per provider: its fields, all required, no
 * other field. The rules are the domain's (libs/domain provider-connections.ts), which
 * transaction-service checks again; refusals name the field, never its value.
 */
function Credential(provider: ConnectionProvider, field: string): PropertyDecorator {
  const rule = PROVIDER_CONNECTIONS[provider].fields[field];
  if (!rule) throw new Error(`${provider} has no credential field ${field}`);
  return applyDecorators(IsString({ message: `${field} must be a string` }), Matches(rule.pattern, { message: `${field} ${rule.message}` }));
}

/** Paynow: the integration id and key of the merchant's Paynow integration. */
export class PaynowConnectionDto {
  @Credential('paynow', 'integration_id')
  integration_id: string;

  @Credential('paynow', 'integration_key')
  integration_key: string;
}

/** DPO Pay: the company token and the service type of the merchant's DPO account. */
export class DpoConnectionDto {
  @Credential('dpo', 'company_token')
  company_token: string;

  @Credential('dpo', 'service_type')
  service_type: string;
}

/** Ozow: the site code, private key and API key of the merchant's Ozow site. */
export class OzowConnectionDto {
  @Credential('ozow', 'site_code')
  site_code: string;

  @Credential('ozow', 'private_key')
  private_key: string;

  @Credential('ozow', 'api_key')
  api_key: string;
}

export const CONNECTION_DTOS: Record<ConnectionProvider, new () => object> = {
  paynow: PaynowConnectionDto,
  dpo: DpoConnectionDto,
  ozow: OzowConnectionDto,
};
