import { newEventsParameters, type NewWebhookEvent } from './events-store';

describe('newEventsParameters', () => {
  const event = (id: string, payload: unknown): NewWebhookEvent => ({
    id,
    source_event_id: `src_${id}`,
    business_id: 7,
    mode: 'test',
    event_type: 'transaction.success',
    payload: payload as NewWebhookEvent['payload'],
    created_at: '2026-11-29T00:00:00.000Z',
  });

  it('sends a payload object once for every event carrying it, and equal objects each', () => {
    const shared = { transaction_id: 'txn_1' };
    const [events, payloads] = newEventsParameters([
      event('a', shared),
      event('b', shared),
      event('c', { transaction_id: 'txn_1' }),
      event('d', { transaction_id: 'txn_2' }),
      event('e', shared),
    ]);
    expect(JSON.parse(payloads)).toEqual([
      { transaction_id: 'txn_1' },
      { transaction_id: 'txn_1' },
      { transaction_id: 'txn_2' },
    ]);
    const parsed = JSON.parse(events) as Array<{ id: string; payload: number }>;
    // In the order given, each naming its payload by index.
    expect(parsed.map((e) => [e.id, e.payload])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 1],
      ['d', 2],
      ['e', 0],
    ]);
    expect(parsed[3]).toEqual({ ...event('d', null), payload: 2 });
  });

  it('refuses an event without a payload rather than record a JSON null', () => {
    expect(() => newEventsParameters([event('a', {}), event('b', null)])).toThrow('webhook event b has no payload');
    expect(() => newEventsParameters([event('a', undefined)])).toThrow(TypeError);
  });
});
