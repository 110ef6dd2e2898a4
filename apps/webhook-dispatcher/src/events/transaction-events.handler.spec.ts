import { createHash } from 'node:crypto';
import { webhookEventId } from './transaction-events.handler';

describe('webhookEventId', () => {
  const FORM = /^evt_[A-Za-z0-9_-]{24}$/;

  it('is deterministic for the same source event and type', () => {
    expect(webhookEventId('e-1', 'payment.created')).toBe(webhookEventId('e-1', 'payment.created'));
  });

  it('is the id every earlier version gave (a replayed event must meet its recorded self)', () => {
    // sha256 of "<source event id>:<type>", base64url, first 24 characters.
    expect(webhookEventId('0f8fad5b-d9cb-469f-a165-70867728950e', 'transaction.success')).toBe(
      'evt_4gYL8KYUBruxv_g6XxIPkCPE',
    );
  });

  it('hashes any text as a Hash object does (UTF-8, lone surrogates included)', () => {
    for (const [src, type] of [
      ['ünïcødé', 'payment.updated'],
      ['\ud800', 'transaction.success'],
    ]) {
      const before = createHash('sha256').update(`${src}:${type}`).digest('base64url').slice(0, 24);
      expect(webhookEventId(src, type)).toBe(`evt_${before}`);
    }
  });

  it('has the evt_ + 24 url-safe characters form', () => {
    for (const [src, type] of [
      ['e-1', 'payment.created'],
      ['', ''],
      ['0f8fad5b-d9cb-469f-a165-70867728950e', 'transaction.success'],
      ['ünïcødé', 'payment.updated'],
    ]) {
      expect(webhookEventId(src, type)).toMatch(FORM);
    }
  });

  it('differs by event type for the same source event', () => {
    const types = ['transaction.success', 'payment.updated', 'payment.completed'];
    const ids = types.map((t) => webhookEventId('e-1', t));
    expect(new Set(ids).size).toBe(types.length);
  });

  it('differs by source event id for the same type', () => {
    const ids = Array.from({ length: 200 }, (_, i) => webhookEventId(`e-${i}`, 'payment.updated'));
    expect(new Set(ids).size).toBe(200);
  });
});
