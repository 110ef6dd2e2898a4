import type { CredentialsResult } from '../connector';

/** A DPO Pay account: its company token and the service type its payments are booked under (both from DPO). */
export interface DpoCredentials {
  companyToken: string;
  serviceType: string;
}

/**
 * DPO's company tokens are GUID-like (`9F416C11-127B-4DE2-AC7F-D5710E4C5E0A`); any printable text
 * without spaces is taken, as the connection rules do.
 */
const TOKEN = /^[\x21-\x7e]{1,100}$/;
const SERVICE_TYPE = /^\d{1,20}$/;

/** Validates `{ company_token, service_type }` (as stored or submitted); names the first bad field. */
export function parseDpoCredentials(input: unknown): CredentialsResult<DpoCredentials> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, field: 'credentials', message: 'must be an object with company_token and service_type' };
  }
  const { company_token: token, service_type: service } = input as Record<string, unknown>;
  if (typeof token !== 'string' || !TOKEN.test(token.trim())) {
    return {
      ok: false,
      field: 'company_token',
      message: 'must be the company token: 1 to 100 printable characters without spaces',
    };
  }
  const serviceText =
    typeof service === 'number' && Number.isSafeInteger(service) && service >= 0 ? String(service) : service;
  if (typeof serviceText !== 'string' || !SERVICE_TYPE.test(serviceText.trim())) {
    return { ok: false, field: 'service_type', message: 'must be the service type: 1 to 20 digits' };
  }
  return { ok: true, value: { companyToken: token.trim(), serviceType: serviceText.trim() } };
}

/** 'ct_…5E0A': the last four characters of the company token (a secret: nothing more of it). */
export function maskDpoCompanyToken(c: DpoCredentials): string {
  return `ct_…${c.companyToken.slice(-4)}`;
}
