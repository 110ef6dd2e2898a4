import type { EventEnvelope } from '@payments/contracts';
import type { TransactionManager } from '@payments/database';
import { batchHandlerOf, handlerOf, type MessageMeta } from './consumer-options';

const envelope = (type: string): EventEnvelope => ({
  id: `e-${type}`,
  type,
  version: 1,
  occurred_at: '2026-01-01T00:00:00.000Z',
  producer: 'test',
  mode: 'test',
  business_id: 1,
  correlation_id: null,
  data: { refund: { refund_id: 'rf_1' } },
});
const m = {} as TransactionManager;
const meta: MessageMeta = { topic: 'refund.status_changed', partition: 0, offset: '0' };

describe('handlerOf / batchHandlerOf', () => {
  it('hands the events of its type on, typed', async () => {
    const seen: string[] = [];
    await handlerOf('refund.status_changed', async (event) => void seen.push(event.data.refund.refund_id))(
      envelope('refund.status_changed'),
      m,
      meta,
    );
    await batchHandlerOf('refund.status_changed', async (events) => void seen.push(`${events.length}`))(
      [envelope('refund.status_changed'), envelope('refund.status_changed')],
      m,
      m.query,
    );
    expect(seen).toEqual(['rf_1', '2']);
  });

  it('fails on an event of another type on its topic, so the consumer retries it then dead-letters it', async () => {
    const handle = jest.fn();
    await expect(
      handlerOf('refund.status_changed', handle)(envelope('transaction.status_changed'), m, meta),
    ).rejects.toThrow('a transaction.status_changed event where refund.status_changed events go');
    await expect(
      batchHandlerOf('refund.status_changed', handle)(
        [envelope('refund.status_changed'), envelope('transaction.status_changed')],
        m,
        m.query,
      ),
    ).rejects.toThrow(/where refund.status_changed events go/);
    expect(handle).not.toHaveBeenCalled();
  });
});
