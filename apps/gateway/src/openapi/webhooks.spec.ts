import {
  EVENT_CATALOGUE,
  PING_EVENT,
  payoutPayload,
  pingPayload,
  refundPayload,
  transactionPayload,
} from '@payments/contracts';
import { at, invoiceEvent, refundEvent, transactionEvent } from '@payments/contracts/fixtures';
import { documentValidator } from './__tests__/document-validator';

/**
 * The payload builders webhook-dispatcher sends (and the events API answers) produce, from
 * fixtures, bodies valid against the committed document's `webhooks` entry of their event type;
 * the schemas are closed, so a field the document lacks fails.
 */

const event = (type: string, data: unknown) => ({
  id: 'evt_AbCdEfGhIjKlMnOpQrStUvWx',
  event: type,
  created_at: at,
  mode: 'test',
  data,
});

describe('webhook payloads against the OpenAPI document', () => {
  const doc = documentValidator();

  it('documents every event type the dispatcher sends, and only those', () => {
    expect(doc.webhookTypes()).toEqual([...EVENT_CATALOGUE, PING_EVENT]);
  });

  const cases: [string, unknown][] = [
    ...['payment.created', 'transaction.pending'].map((t): [string, unknown] => [
      t,
      transactionPayload(transactionEvent('pending', null)),
    ]),
    ...['payment.updated', 'payment.completed', 'transaction.success'].map((t): [string, unknown] => [
      t,
      transactionPayload(transactionEvent('success', 'pending')),
    ]),
    ['refund.pending', refundPayload(refundEvent('pending'))],
    ['refund.failed', refundPayload(refundEvent('failed'))],
    ['payout.created', payoutPayload(invoiceEvent('issued'))],
    ['payout.completed', payoutPayload(invoiceEvent('paid'))],
    [PING_EVENT, pingPayload(7)],
  ];

  it.each(cases)('%s: the built body matches the documented one', (type, data) => {
    expect(doc.webhook(type, event(type, data))).toEqual([]);
  });

  it('fails a payload with a field the document lacks, or sent under another event type', () => {
    const data = refundPayload(refundEvent('pending'));
    expect(doc.webhook('refund.pending', event('refund.pending', { ...data, checkoutId: null }))).toContain(
      '/data must NOT have additional properties: checkoutId',
    );
    expect(doc.webhook('payment.created', event('refund.pending', data))).not.toEqual([]);
  });
});
