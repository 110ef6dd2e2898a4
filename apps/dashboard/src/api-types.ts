/** Answers of the dashboard API's webhooks, events and settings pages (docs/dashboard.md). */
import type { Endpoint } from './api';

/** An event: exactly the body its webhook deliveries carry. */
export interface EventItem {
  id: string;
  event: string;
  created_at: string;
  mode: string;
  data: Record<string, unknown>;
}

export interface EventDelivery {
  delivery_id: string;
  callback_id: number;
  callback_url: string;
  status: string;
  attempts: number;
  last_error: string | null;
  last_status_code: number | null;
  date_created: string;
}

export interface EndpointList {
  endpoints: Endpoint[];
  event_types: string[];
}

export interface ConnectionInfo {
  provider: string;
  mode: string;
  account: string;
  methods: string[];
  notification_url: string;
  date_created: string;
  date_updated: string;
}

export interface ProviderItem {
  provider: string;
  fields: { name: string; secret: boolean }[];
  notification_url: string;
  connection: ConnectionInfo | null;
}

export interface Settings {
  redirect_origins: string[];
  providers: ProviderItem[];
}

/** An error's message and, when the API named fields, each field's problem. */
export function problemText(err: unknown): string {
  const e = err as { message?: string; fields?: { field: string; message: string }[] };
  if (!e || typeof e.message !== 'string') return 'Could not reach the server.';
  const fields = e.fields ?? [];
  return fields.length > 0 ? `${e.message} (${fields.map((f) => `${f.field} ${f.message}`).join('; ')})` : e.message;
}
