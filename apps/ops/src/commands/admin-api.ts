import { BadValueError } from '../cli/errors';
import type { OpsConfig } from '../ops.config';

/** One call to the gateway's admin API (ADMIN_API_TOKEN); a non-2xx answer is an error naming it. */
export async function adminApi<T>(config: OpsConfig, method: string, path: string, body?: unknown): Promise<T> {
  if (!config.ADMIN_API_TOKEN) throw new BadValueError('ADMIN_API_TOKEN must be set');
  let res: Response;
  try {
    res = await fetch(`${config.GATEWAY_URL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${config.ADMIN_API_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    throw new Error(`the gateway at ${config.GATEWAY_URL} is unreachable: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`admin API ${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}
