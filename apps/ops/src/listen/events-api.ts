import { BadValueError } from '../cli/errors';
import { CursorGoneError, type EventsPage, type FetchEventsPage } from './event-follower';

/** The gateway did not answer usefully (down, overloaded, 5xx, 429): worth retrying. */
export class GatewayUnavailableError extends Error {}

/**
 * GET /v1/events with a merchant's secret key. A refused key is final (exit 2); anything else the
 * gateway could recover from is a GatewayUnavailableError. The key never appears in a message.
 */
export function eventsApi(gatewayUrl: string, apiKey: string, stop: AbortSignal): FetchEventsPage {
  return async (query) => {
    const url = `${gatewayUrl}/v1/events?${new URLSearchParams(query).toString()}`;
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${apiKey}` },
        signal: AbortSignal.any([stop, AbortSignal.timeout(15_000)]),
      });
    } catch (err) {
      if (stop.aborted) throw err;
      const e = err as Error & { cause?: { code?: string } };
      throw new GatewayUnavailableError(`the gateway at ${gatewayUrl} is unreachable: ${e.cause?.code ?? e.message}`);
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403) {
      throw new BadValueError(`the gateway refused the API key (${res.status}): ${errorMessage(text)}`);
    }
    if (res.status === 400 && query.ending_before !== undefined && namesField(text, 'ending_before')) {
      throw new CursorGoneError(`event ${query.ending_before} is no longer listed: ${errorMessage(text)}`);
    }
    if (!res.ok) throw new GatewayUnavailableError(`GET /v1/events answered ${res.status}: ${errorMessage(text)}`);
    return JSON.parse(text) as EventsPage;
  };
}

/** Whether an error body blames this query parameter. */
function namesField(text: string, field: string): boolean {
  try {
    const errors = (JSON.parse(text) as { errors?: { field?: unknown }[] }).errors;
    return Array.isArray(errors) && errors.some((e) => e?.field === field);
  } catch {
    return false;
  }
}

function errorMessage(text: string): string {
  try {
    return String((JSON.parse(text) as { message?: unknown }).message ?? text).slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}
