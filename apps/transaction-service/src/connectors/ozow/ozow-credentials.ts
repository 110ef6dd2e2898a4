import type { CredentialsResult } from '../connector';
import { credentialProblems } from '@payments/domain';

/** An Ozow site: its site code, private key (hashes) and API key (the status and refund APIs). */
export interface OzowCredentials {
  siteCode: string;
  /** Kept as given: every Ozow hash lower-cases the whole string, key included, before hashing. */
  privateKey: string;
  apiKey: string;
}

/**
 * Validates `{ site_code, private_key, api_key }` (as stored or submitted) with the platform's own
 * rules for Ozow connections (printable, no spaces, at most 100 characters); names the first bad field.
 */
export function parseOzowCredentials(input: unknown): CredentialsResult<OzowCredentials> {
  const problems = credentialProblems('ozow', input);
  if (problems.length > 0) return { ok: false, field: problems[0].field, message: problems[0].message };
  const { site_code: siteCode, private_key: privateKey, api_key: apiKey } = input as Record<string, string>;
  return { ok: true, value: { siteCode, privateKey, apiKey } };
}

/** 'site_…0001': the last four characters of the site code, never a key. */
export function maskOzowSite(c: OzowCredentials): string {
  return `site_…${c.siteCode.slice(-4)}`;
}
