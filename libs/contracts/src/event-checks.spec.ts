import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { envelopeProblem, type EventEnvelope } from './envelope';
import { eventChecksSource } from './event-checks-source';
import { EVENT_DATA_CHECKS } from './event-checks.generated';
import { EVENT_DATA_DECODERS } from './event-schemas';
import { invoiceEvent, refundEvent, transactionEvent } from './fixtures';
import { Topics } from './topics';

const envelope = (type: string, data: unknown): EventEnvelope =>
  ({
    id: 'evt_1',
    type,
    version: 1,
    occurred_at: '2026-01-31T12:00:00.000Z',
    producer: 'p',
    mode: 'test',
    business_id: 1,
    correlation_id: null,
    data,
  }) as EventEnvelope;

describe('event data decoders', () => {
  it('are compiled from event-schemas.ts as it is now (run `npm run generate:event-checks`)', () => {
    const file = join(__dirname, 'event-checks.generated.ts');
    const formatted = execFileSync(
      process.execPath,
      [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', file],
      { input: eventChecksSource(), encoding: 'utf8' },
    );
    expect(readFileSync(file, 'utf8')).toBe(formatted);
  });

  it('decode every event type the producers write, old events without later fields included', () => {
    const {
      metadata: _m,
      description: _d,
      link_splits: _l,
      ...oldTransaction
    } = { ...transactionEvent('success', 'pending').transaction, metadata: {}, description: null };
    const samples: [string, unknown][] = [
      [Topics.TransactionStatusChanged, transactionEvent('pending', null)],
      [
        Topics.TransactionStatusChanged,
        {
          ...transactionEvent('success', 'pending'),
          transaction: {
            ...transactionEvent('success', 'pending').transaction,
            metadata: { order: '7' },
            description: 'x',
            link_splits: [{ business_id: 2, type: 'percentage', value: 10 }],
          },
        },
      ],
      [Topics.TransactionStatusChanged, { ...transactionEvent('success', 'pending'), transaction: oldTransaction }],
      [Topics.RefundStatusChanged, refundEvent('pending')],
      [Topics.RefundStatusChanged, refundEvent('failed')],
      [Topics.SettlementInvoiceChanged, invoiceEvent('issued')],
      [Topics.SettlementInvoiceChanged, invoiceEvent('paid')],
      // A field a newer producer added is let through.
      [Topics.SettlementInvoiceChanged, { ...invoiceEvent('paid'), added_later: 1 }],
    ];
    for (const [type, data] of samples)
      expect({ type, problem: envelopeProblem(envelope(type, data)) }).toEqual({ type, problem: null });
  });

  it('refuse data a consumer could not apply, with the reason a dead letter carries', () => {
    const txn = transactionEvent('success', 'pending');
    const broken: [string, unknown][] = [
      [Topics.TransactionStatusChanged, { ...txn, transaction: { ...txn.transaction, amount: '1000' } }],
      [Topics.TransactionStatusChanged, { ...txn, transaction: { ...txn.transaction, status: 'refunded' } }],
      [
        Topics.TransactionStatusChanged,
        { ...txn, transaction: { ...txn.transaction, link_splits: [{ business_id: 2, type: 'half', value: 1 }] } },
      ],
      [Topics.TransactionStatusChanged, { status: 'success', previous_status: null }],
      [
        Topics.RefundStatusChanged,
        { ...refundEvent('pending'), refund: { ...refundEvent('pending').refund, transaction: null } },
      ],
      [
        Topics.SettlementInvoiceChanged,
        { ...invoiceEvent('paid'), invoice: { ...invoiceEvent('paid').invoice, amount: 2.5 } },
      ],
    ];
    for (const [type, data] of broken)
      expect(envelopeProblem(envelope(type, data))).toBe(`data is not what a ${type} event carries (event-schemas.ts)`);
    // A type no service consumes is not checked here (the consumer dead-letters it: no handler).
    expect(envelopeProblem(envelope('something.else', { x: 1 }))).toBeNull();
  });

  it('agree with TypeBox itself on every sample', () => {
    const txn = transactionEvent('success', 'pending');
    for (const [type, schema] of Object.entries(EVENT_DATA_DECODERS)) {
      for (const data of [txn, refundEvent('pending'), invoiceEvent('issued'), {}, null, { ...txn, status: 'x' }]) {
        expect(EVENT_DATA_CHECKS[type](data)).toBe(Value.Check(schema, data));
      }
    }
  });
});

describe('event types named after Object.prototype members', () => {
  it('are not consumed types: no check runs and nothing throws', () => {
    for (const type of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf']) {
      expect(() => envelopeProblem(envelope(type, { x: 1 }))).not.toThrow();
      expect(envelopeProblem(envelope(type, { x: 1 }))).toBeNull();
    }
  });
});
