import { required, UsageError, type Parsed } from '../args';
import type { OpsConfig } from '../ops.config';

/** `ops business create --name "Acme"`: the admin API, printing the four keys (shown once). */
export async function createBusinessCommand(config: OpsConfig, p: Parsed): Promise<void> {
  if (!config.ADMIN_API_TOKEN) throw new UsageError('ADMIN_API_TOKEN must be set');
  const res = await fetch(`${config.GATEWAY_URL}/admin/v1/businesses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.ADMIN_API_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: required(p, 'name') }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 201) throw new Error(`admin API answered ${res.status}: ${JSON.stringify(body)}`);
  console.log(JSON.stringify(body, null, 2));
}
