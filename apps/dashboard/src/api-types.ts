/** Answers of the dashboard API's webhooks, events and settings pages (docs/dashboard.md). */
import type { EventView } from '@payments/contracts/dashboard-api';

export type {
  EndpointList,
  EventDeliveryView as EventDelivery,
  ProviderItem,
  Settings,
} from '@payments/contracts/dashboard-api';

/** An event: exactly the body its webhook deliveries carry; the pages read its data loosely. */
export type EventItem = Omit<EventView, 'data'> & { data: Record<string, unknown> };

/** An error's message and, when the API named fields, each field's problem. */
export function problemText(err: unknown): string {
  const e = err as { message?: string; fields?: { field: string; message: string }[] };
  if (!e || typeof e.message !== 'string') return 'Could not reach the server.';
  const fields = e.fields ?? [];
  return fields.length > 0 ? `${e.message} (${fields.map((f) => `${f.field} ${f.message}`).join('; ')})` : e.message;
}
