import { Value } from '@sinclair/typebox/value';
import type { EntityManager } from '@payments/database';
import {
  payoutPayload,
  refundPayload,
  transactionPayload,
  type EventEnvelope,
  type WebhookEventType,
} from '@payments/contracts';
import { webhookEventSchema } from '@payments/contracts/schemas';
import { at, invoiceEvent, refundEvent, transactionEvent } from '@payments/contracts/fixtures';
import type { DeliveryStore } from '../delivery/delivery-store';
import type { FirstAttempts } from '../delivery/first-attempts';
import { eventView, type NewWebhookEvent } from './events-store';
import { WebhookEventsHandler } from './transaction-events.handler';

/**
 * What the handler records per domain event (the rows deliveries send and the events API
 * answers): the catalogue event types, each with the typed builder's payload, a body valid
 * against its event type's schema (the one the OpenAPI document's webhooks publish).
 */
/** A partial envelope, typed as the handler method it is passed to expects. */
const envelope = <E extends EventEnvelope>(id: string, type: string, data: unknown): E =>
  ({ id, type, business_id: 1, mode: 'test', occurred_at: at, data }) as unknown as E;

/** An inserted row as the handler hands it to the store (JSON: its timestamp a string). */
type Row = Omit<NewWebhookEvent, 'created_at'> & { created_at: string };

/** Runs the handler against a fake store that keeps the webhook_events rows it is asked to record. */
async function recorded(run: (h: WebhookEventsHandler, m: EntityManager) => Promise<void>): Promise<Row[]> {
  const rows: Row[] = [];
  const m = {} as EntityManager;
  // No callback subscribes: nothing fans out, so no first attempt is started.
  const deliveries = {
    recordAndFanOut: async (_m: EntityManager, events: NewWebhookEvent[]) => {
      rows.push(...(JSON.parse(JSON.stringify(events)) as Row[]));
      return [];
    },
  } as unknown as DeliveryStore;
  const first = { accepting: () => false } as unknown as FirstAttempts;
  await run(new WebhookEventsHandler(deliveries, first), m);
  return rows;
}

const body = (r: Row) => eventView({ ...r, created_at: new Date(r.created_at) });

describe('WebhookEventsHandler records typed webhook bodies', () => {
  it('records payment.*, transaction.*, refund.* and payout.* events whose bodies match their schema', async () => {
    const tx1 = transactionEvent('pending', null);
    const tx2 = transactionEvent('success', 'pending');
    const rows = await recorded(async (h, m) => {
      await h.onTransactions([envelope('e1', 'tx', tx1), envelope('e2', 'tx', tx2)], m);
      await h.onRefunds([envelope('e3', 'rf', refundEvent('pending')), envelope('e4', 'rf', refundEvent('failed'))], m);
      await h.onInvoices(
        [envelope('e5', 'inv', invoiceEvent('issued')), envelope('e6', 'inv', invoiceEvent('paid'))],
        m,
      );
    });
    expect(rows.map((r) => [r.event_type, r.payload])).toEqual([
      ['transaction.pending', transactionPayload(tx1)],
      ['payment.created', transactionPayload(tx1)],
      ['transaction.success', transactionPayload(tx2)],
      ['payment.updated', transactionPayload(tx2)],
      ['payment.completed', transactionPayload(tx2)],
      ['refund.pending', refundPayload(refundEvent('pending'))],
      ['refund.failed', refundPayload(refundEvent('failed'))],
      ['payout.created', payoutPayload(invoiceEvent('issued'))],
      ['payout.completed', payoutPayload(invoiceEvent('paid'))],
    ]);
    for (const row of rows) {
      const errors = [...Value.Errors(webhookEventSchema(row.event_type as WebhookEventType), body(row))].map(
        (e) => `${e.path} ${e.message}`,
      );
      expect({ type: row.event_type, errors }).toEqual({ type: row.event_type, errors: [] });
    }
  });
});
