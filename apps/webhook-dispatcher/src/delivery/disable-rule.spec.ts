import { WebhookDispatcherConfig } from '../config/webhook.config';
import { disableReason, parseDuration } from './disable-rule';

describe('parseDuration', () => {
  it('reads a whole number with a unit, and 0', () => {
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('12h')).toBe(43_200_000);
    expect(parseDuration('5d')).toBe(432_000_000);
  });

  it('rejects anything else', () => {
    for (const bad of ['', '5', '1.5h', '-1d', '5 d', '5w', '05s', 'd'])
      expect(() => parseDuration(bad)).toThrow('not a duration');
  });

  it('defaults to 5 days, as Svix does', () => {
    expect(parseDuration(new WebhookDispatcherConfig().WEBHOOK_DISABLE_MIN_FAILING)).toBe(5 * 86_400_000);
  });
});

describe('disableReason', () => {
  const fiveDays = 5 * 86_400_000;

  it('needs both the count and the span', () => {
    const rule = { after: 50, minFailingMs: fiveDays };
    // The incident of the issue: 50 failures within 0.3 s of the first one.
    expect(disableReason(rule, { gone: false, count: 50, failingForMs: 300 })).toBeNull();
    expect(disableReason(rule, { gone: false, count: 49, failingForMs: fiveDays + 1 })).toBeNull();
    expect(disableReason(rule, { gone: false, count: 50, failingForMs: fiveDays })).toBe(
      '50 consecutive failed deliveries over 432000 s',
    );
  });

  it('keeps the count-only rule when the span is 0', () => {
    const rule = { after: 3, minFailingMs: 0 };
    expect(disableReason(rule, { gone: false, count: 2, failingForMs: 0 })).toBeNull();
    expect(disableReason(rule, { gone: false, count: 3, failingForMs: 0 })).toBe('3 consecutive failed deliveries');
  });

  it('disables at once on 410 Gone', () => {
    expect(disableReason({ after: 50, minFailingMs: fiveDays }, { gone: true, count: 1, failingForMs: 0 })).toBe(
      'the endpoint answered 410 Gone',
    );
  });
});
