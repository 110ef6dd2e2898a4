import type { CallbackRow } from '../callbacks/callback-store';

// The signing itself is shared with `ops webhooks listen`: one definition, in contracts.
export { newWebhookSecret, signPayload, webhookHeaders } from '@payments/contracts';

/** The secrets an attempt is signed with: the current one, and during a roll's grace the previous one too. */
export function signingSecrets(
  c: Pick<CallbackRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>,
  now = new Date(),
): string[] {
  const live = c.previous_secret && c.previous_secret_expires_at && c.previous_secret_expires_at > now;
  return live ? [c.secret, c.previous_secret!] : [c.secret];
}
