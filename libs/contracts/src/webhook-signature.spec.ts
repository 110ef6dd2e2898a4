import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signPayload, webhookHeaders } from './webhook-signature';

describe('webhook signatures (checked with the standardwebhooks package)', () => {
  const body = JSON.stringify({ id: 'evt_1', event: 'transaction.success', data: { amount: 100 } });

  it('produces headers an independent Standard Webhooks verifier accepts', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const headers = webhookHeaders([secret], 'evt_1', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is rejected with another secret or a changed body', () => {
    const headers = webhookHeaders([newWebhookSecret()], 'evt_1', Math.floor(Date.now() / 1000), body);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body.replace('100', '101'), headers)).toThrow();
  });

  it('carries one signature per secret during a roll; each verifies', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const headers = webhookHeaders([a, b], 'evt_2', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(a).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(b).verify(body, headers)).not.toThrow();
  });

  it('matches the library’s own signature', () => {
    const secret = newWebhookSecret();
    const at = new Date('2026-11-22T10:00:00Z');
    expect(signPayload(secret, 'evt_3', at.getTime() / 1000, body)).toBe(new Webhook(secret).sign('evt_3', at, body));
  });

  it('signs alike with its imported key cached, and after more secrets than the cache holds', () => {
    const secret = newWebhookSecret();
    const at = new Date('2026-11-22T10:00:00Z');
    const expected = new Webhook(secret).sign('evt_4', at, body);
    expect(signPayload(secret, 'evt_4', at.getTime() / 1000, body)).toBe(expected);
    expect(signPayload(secret, 'evt_4', at.getTime() / 1000, body)).toBe(expected);
    for (let i = 0; i < 10_001; i++) signPayload(newWebhookSecret(), 'evt_x', 1, 'x');
    expect(signPayload(secret, 'evt_4', at.getTime() / 1000, body)).toBe(expected);
  });
});
