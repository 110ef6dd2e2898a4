import { providerItems } from './settings.controller';
import { endpointChanges, endpointEditAction } from './webhook-endpoints.controller';

describe('webhook endpoint edits in the audit log', () => {
  it('names enabling and disabling alone as such, anything else an update', () => {
    expect(endpointEditAction({ is_active: false })).toBe('webhook.disable');
    expect(endpointEditAction({ is_active: true })).toBe('webhook.enable');
    expect(endpointEditAction({ is_active: true, url: 'https://shop.example/hooks' })).toBe('webhook.update');
    expect(endpointEditAction({ events: ['refund.success'] })).toBe('webhook.update');
  });

  it('records only the fields sent', () => {
    expect(endpointChanges({ description: 'orders', url: undefined })).toEqual({ description: 'orders' });
  });
});

describe('the settings page’s providers', () => {
  it('lists every provider, connected or not, with its field names and never a credential', () => {
    const connected = {
      provider: 'paynow' as const,
      mode: 'test' as const,
      account: 'int_…1201',
      methods: ['ecocash'],
      date_created: '2026-01-01T00:00:00.000Z',
      date_updated: '2026-01-01T00:00:00.000Z',
    };
    const items = providerItems([connected], 'https://pay.example');
    expect(items.map((p) => [p.provider, p.connection?.account ?? null])).toEqual([
      ['paynow', 'int_…1201'],
      ['dpo', null],
      ['ozow', null],
    ]);
    expect(items[0].fields).toEqual([
      { name: 'integration_id', secret: false },
      { name: 'integration_key', secret: true },
    ]);
    expect(items[2].fields.filter((f) => f.secret).map((f) => f.name)).toEqual(['private_key', 'api_key']);
    expect(items[1].notification_url).toBe('https://pay.example/v1/provider-notifications/dpo');
  });
});
