import type { ConnectionView } from '@payments/contracts';
import type { ConnectionObject } from './connection.responses';

/** Where a provider sends its payment notifications for a connection (served by the gateway under PUBLIC_BASE_URL). */
export function notificationUrl(publicBaseUrl: string, provider: string): string {
  return `${publicBaseUrl}/v1/provider-notifications/${provider}`;
}

/** A connection as the API shows it: the service's view (no credentials) and its notification URL. */
export function presentConnection(c: ConnectionView, publicBaseUrl: string): ConnectionObject {
  return {
    provider: c.provider,
    mode: c.mode,
    account: c.account,
    methods: c.methods as ConnectionObject['methods'],
    notification_url: notificationUrl(publicBaseUrl, c.provider),
    date_created: c.date_created,
    date_updated: c.date_updated,
  };
}
