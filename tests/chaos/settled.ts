import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConsumerGroups } from '@payments/contracts';
import { ROOT } from '../support/infra';
import { runOps } from '../support/ops';
import type { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import type { WebhookReceiver } from '../support/webhook-receiver';
import type { PaymentLoad } from './payment-load';

/** The events a chaos run's callback subscribes to. */
export const SUBSCRIBED = ['transaction.success', 'transaction.failed', 'refund.success', 'refund.failed'];

/**
 * The services' settings of a chaos run, webhooks to `receiver`: retries close together (so
 * deliveries failed during an outage are through within the test), a timeout below the outages,
 * no rate limit in the load's way, and `extra` on top.
 */
export function chaosEnv(receiver: WebhookReceiver, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...receiver.dispatcherEnv(),
    WEBHOOK_RETRY_SCHEDULE: '1,1,2,2,3,3,5,5,5,5,5,5',
    WEBHOOK_TIMEOUT_MS: '5000',
    RATE_LIMIT_PER_SECOND: '1000',
    ...extra,
  };
}

/** A merchant with a 3.33 % partner fee split and a callback at `receiver.url(path)`; its test secret key. */
export async function chaosShop(
  stack: Stack,
  receiver: WebhookReceiver,
  path: string,
): Promise<{ id: number; key: string }> {
  const shop = await stack.createBusiness('Chaos Shop');
  const partner = await stack.createBusiness('Chaos Partner');
  const key = shop.test.secret;
  const config = await stack.api('POST', '/v1/splits/config', {
    key,
    body: {
      partner_business_id: partner.id,
      split_type: 'percentage',
      split_value: 333,
      split_role: 'fee',
      currency: 'USD',
    },
  });
  if (config.status !== 200) throw new Error(`split config: ${config.status} ${JSON.stringify(config.body)}`);
  const callback = await stack.api('POST', '/v1/callback', {
    key,
    body: { url: receiver.url(path), events: SUBSCRIBED },
  });
  if (callback.status !== 200) throw new Error(`callback: ${callback.status} ${JSON.stringify(callback.body)}`);
  return { id: shop.id, key };
}

/** Writes the output of every process the stack runs to .local/logs/<name>/, for a look after a failure. */
export function keepServiceOutput(stack: Stack | undefined, name: string): void {
  const logs = join(ROOT, '.local', 'logs', name);
  mkdirSync(logs, { recursive: true });
  for (const p of stack?.allProcesses ?? []) writeFileSync(join(logs, `${p.app}-${p.child.pid}.log`), p.output);
}

/** The ops CLI against the stack (its topic prefix included, so `lag` and `dlq` see this stack's groups). */
const ops = (stack: Stack, ...args: string[]) => runOps(stack, args, 120_000);

/**
 * Once the load has stopped and everything in flight settled: `ops reconcile` finds no difference
 * between the services, every payment the API accepted exists in its final state, the receiver got
 * every subscribed event, and no webhook-id stood for two different events.
 */
export async function expectEverythingSettled(
  stack: Stack,
  load: PaymentLoad,
  receiver: WebhookReceiver,
  path: string,
  shop: { id: number; key: string },
): Promise<void> {
  const reconciled = await waitFor(
    'ops reconcile to find no difference',
    async () => {
      const r = await ops(stack, 'reconcile');
      return r.code === 0 ? r : undefined;
    },
    { timeoutMs: 180_000, intervalMs: 3_000 },
  ).catch(async (err) => {
    // What an on-call engineer would look at next: where each group stands, and what it dead-lettered.
    const lag = (await ops(stack, 'lag')).out;
    const letters = await Promise.all(
      Object.values(ConsumerGroups).map(
        async (g) => `${g}: ${(await ops(stack, 'dlq', 'list', '--group', g, '--limit', '20')).out.slice(0, 2000)}`,
      ),
    );
    throw new Error(
      `${(err as Error).message}\n${(await ops(stack, 'reconcile')).out.slice(0, 4000)}\n` +
        `lag:\n${lag.slice(0, 3000)}\n` +
        `dead letters:\n${letters.join('\n')}\n` +
        `load failures: ${JSON.stringify([...load.failures])}`,
    );
  });
  expect(reconciled.out).toMatch(/^0 differences \(\d+ transactions, \d+ webhook events\)$/m);

  // No accepted payment lost: each is found by its reference, in a final state.
  for (let i = 0; i < load.accepted.length; i += 25) {
    const batch = load.accepted.slice(i, i + 25);
    const found = await Promise.all(
      batch.map(async (p) => ({
        reference: p.reference,
        status: (await stack.api('GET', `/v1/transactions/verify?reference=${p.reference}`, { key: shop.key })).body
          .status,
      })),
    );
    expect(found).toEqual(batch.map((p) => ({ reference: p.reference, status: p.success ? 'success' : 'failed' })));
  }

  // Every subscribed event reached the receiver; a webhook-id always stood for the same event.
  const { rows: events } = await stack
    .db('webhook-dispatcher')
    .query<{ id: string }>('SELECT id FROM webhook_events WHERE business_id = $1 AND event_type = ANY($2::text[])', [
      shop.id,
      SUBSCRIBED,
    ]);
  expect(events.length).toBeGreaterThan(load.accepted.length);
  await waitFor(
    'the receiver to have every subscribed event',
    () => {
      const got = new Set(receiver.at(path).map((h) => h.headers['webhook-id']));
      return events.every((e) => got.has(e.id));
    },
    { timeoutMs: 120_000, intervalMs: 1_000 },
  );
  const bodyOf = new Map<string, string>();
  for (const hit of receiver.at(path)) {
    const { id, event, data } = JSON.parse(hit.body) as { id: string; event: string; data: unknown };
    expect(id).toBe(hit.headers['webhook-id']);
    const seen = bodyOf.get(id);
    const now = JSON.stringify({ event, data });
    if (seen !== undefined) expect(now).toBe(seen);
    bodyOf.set(id, now);
  }
}

/** The first transaction.success / transaction.failed webhook of each payment reference: when it arrived. */
export function firstOutcomeWebhook(receiver: WebhookReceiver, path: string): Map<string, number> {
  const first = new Map<string, number>();
  for (const hit of receiver.at(path)) {
    const body = JSON.parse(hit.body) as {
      event: string;
      data: { transaction_reference?: string; reference?: string };
    };
    if (body.event !== 'transaction.success' && body.event !== 'transaction.failed') continue;
    const ref = body.data.transaction_reference ?? body.data.reference;
    if (ref && !first.has(ref)) first.set(ref, hit.at);
  }
  return first;
}
