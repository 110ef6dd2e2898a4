import { ConfigError, loadConfig } from '@payments/config';
import { isCronExpression } from './cron';
import { SplitLedgerConfig } from './split-ledger.config';

describe('isCronExpression', () => {
  it.each([
    '0 0 * * 1',
    '* * * * *',
    '*/15 2-4 1,15 * MON-FRI',
    '30 23 28-31 * *',
    '0 0 1 jan,jul sun',
    '5 4 * * 7',
    '0 */2 * 1-12/3 0',
  ])('accepts %p', (cron) => {
    expect(isCronExpression(cron)).toBe(true);
  });

  it.each([
    '',
    '0 0 * *',
    '0 0 * * 1 2',
    '60 0 * * 1',
    '0 24 * * 1',
    '0 0 0 * 1',
    '0 0 * 13 1',
    '0 0 * * 8',
    '5-1 * * * *',
    '*/0 * * * *',
    'a b c d e',
    '0 0 * * MONDAY',
    '1--2 * * * *',
  ])('refuses %p', (cron) => {
    expect(isCronExpression(cron)).toBe(false);
  });
});

describe('SplitLedgerConfig', () => {
  it('defaults SETTLEMENT_CRON to Monday 00:00', () => {
    expect(loadConfig(SplitLedgerConfig, {}).SETTLEMENT_CRON).toBe('0 0 * * 1');
  });

  it('takes SETTLEMENT_CRON from the environment', () => {
    expect(loadConfig(SplitLedgerConfig, { SETTLEMENT_CRON: '30 2 * * 0' }).SETTLEMENT_CRON).toBe('30 2 * * 0');
  });

  it('refuses a bad SETTLEMENT_CRON at boot, naming it', () => {
    expect(() => loadConfig(SplitLedgerConfig, { SETTLEMENT_CRON: '99 * * * *' })).toThrow(ConfigError);
    expect(() => loadConfig(SplitLedgerConfig, { SETTLEMENT_CRON: 'weekly' })).toThrow(
      /SETTLEMENT_CRON: .*5-field cron/,
    );
  });

  it('batches consumer fetches by default, and takes the limits from the environment', () => {
    expect(loadConfig(SplitLedgerConfig, {})).toMatchObject({
      LEDGER_FETCH_MIN_BYTES: 16_384,
      LEDGER_FETCH_MAX_WAIT_MS: 200,
    });
    expect(
      loadConfig(SplitLedgerConfig, { LEDGER_FETCH_MIN_BYTES: '1', LEDGER_FETCH_MAX_WAIT_MS: '50' }),
    ).toMatchObject({ LEDGER_FETCH_MIN_BYTES: 1, LEDGER_FETCH_MAX_WAIT_MS: 50 });
  });

  it('refuses fetch limits out of range at boot, naming them', () => {
    expect(() => loadConfig(SplitLedgerConfig, { LEDGER_FETCH_MIN_BYTES: '0' })).toThrow(/LEDGER_FETCH_MIN_BYTES/);
    expect(() => loadConfig(SplitLedgerConfig, { LEDGER_FETCH_MAX_WAIT_MS: '60000' })).toThrow(
      /LEDGER_FETCH_MAX_WAIT_MS/,
    );
  });
});
