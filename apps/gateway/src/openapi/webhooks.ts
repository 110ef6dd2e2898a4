import type { PathItemObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { WebhookEventType } from '@payments/contracts';
import {
  PayoutEventData,
  PingEventData,
  RefundEventData,
  TransactionEventData,
  WEBHOOK_EVENT_TYPES,
  webhookEventSchema,
} from '@payments/contracts/schemas';

/** When each event type is sent; the compiler requires an entry per type the dispatcher sends. */
const WHEN: Record<WebhookEventType, string> = {
  'payment.created': 'A transaction was created (initialized, or paid through a payment link).',
  'payment.updated': 'A transaction changed status after its creation.',
  'payment.completed': 'A transaction succeeded (sent with transaction.success).',
  'transaction.pending': 'A transaction is pending: created, waiting for the customer.',
  'transaction.processing': 'The payment provider is processing the transaction.',
  'transaction.success': 'The transaction succeeded.',
  'transaction.failed': 'The transaction failed or was declined.',
  'refund.pending': 'A refund was asked for.',
  'refund.success': 'A refund succeeded: amount_refunded of its transaction includes it.',
  'refund.failed': 'A refund failed.',
  'payout.created': 'A settlement invoice naming your business as creditor was issued.',
  'payout.completed': 'A settlement invoice naming your business as creditor was paid.',
  ping: 'A test webhook (POST /v1/callback/{id}/test); never listed by the events API, not subscribable.',
};

/** The data schemas of the webhooks, shown once under components and referenced from each event type. */
export const WEBHOOK_DATA_COMPONENTS: Record<string, object> = {
  TransactionEventData,
  RefundEventData,
  PayoutEventData,
  PingEventData,
};

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
});

/**
 * OpenAPI 3.1 `webhooks`: one entry per event type, its body schema the one the dispatcher's
 * payload builders return (libs/contracts webhook-payloads), headers per Standard Webhooks.
 */
export function webhooksSection(ref: (schema: object) => SchemaObject): Record<string, PathItemObject> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type}`,
          summary: type,
          description:
            `${WHEN[type]} Sent as a signed POST to each active callback subscribed to \`${type}\`; ` +
            'retried on a schedule until a 2xx answer (410 Gone disables the callback).',
          parameters: [
            header('webhook-id', 'The event id (evt_…), the same on every attempt: deduplicate on it'),
            header('webhook-timestamp', 'Unix seconds when this attempt was signed'),
            header(
              'webhook-signature',
              'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, ' +
                'space-separated while a rolled secret overlaps',
            ),
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref(webhookEventSchema(type)) } } },
          responses: {
            '2XX': { description: 'Acknowledged; any other answer (or none within the timeout) is retried' },
            '410': { description: 'Gone: the callback is disabled' },
          },
        },
      } as PathItemObject,
    ]),
  );
}
