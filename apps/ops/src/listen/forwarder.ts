import { createHmac } from 'node:crypto';
import { webhookBody, webhookHeaders, type EventView } from '@payments/contracts';

/**
 * The local signing secret of a secret key: derived from it (HMAC), so it is the same on every run
 * for a business and mode, nothing is stored, and the key cannot be recovered from it.
 */
export function localSigningSecret(apiKey: string): string {
  const bytes = createHmac('sha256', apiKey)
    .update('ops webhooks listen: local signing secret')
    .digest()
    .subarray(0, 24);
  return `whsec_${bytes.toString('base64')}`;
}

export interface ForwardResult {
  status?: number;
  error?: string;
  durationMs: number;
}

/** POSTs one event, signed as the dispatcher signs a delivery; a receiver failure is a result, not an error. */
export async function forwardEvent(
  url: string,
  secret: string,
  event: EventView,
  timeoutMs: number,
  stop: AbortSignal,
): Promise<ForwardResult> {
  const body = webhookBody(event);
  const headers = webhookHeaders([secret], event.id, Math.floor(Date.now() / 1000), body);
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, durationMs: took() };
  } catch (err) {
    if (stop.aborted) throw err;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { error: reason, durationMs: took() };
  }
}
