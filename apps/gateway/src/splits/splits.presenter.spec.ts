import type { LedgerEntryView, SplitConfigView } from '@payments/contracts';
import { presentLedger, presentSplitConfigCreated, presentSplitConfigList, specDateTime } from './splits.presenter';

const config: SplitConfigView = {
  public_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  owner_business_id: 1,
  partner_business_id: 2,
  split_type: 'percentage',
  split_value: 250,
  split_role: 'fee',
  currency: 'USD',
  description: null,
  is_active: true,
  date_created: '2026-01-05T09:08:07.654Z',
  date_updated: '2026-01-05T09:08:07.654Z',
};

describe('specDateTime', () => {
  it('renders YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(specDateTime('2026-01-05T09:08:07.654Z')).toBe('2026-01-05 09:08:07');
    expect(specDateTime('2026-01-05T01:00:00+02:00')).toBe('2026-01-04 23:00:00');
    expect(specDateTime(null)).toBeNull();
  });

  it('refuses what is not a timestamp', () => {
    expect(() => specDateTime('yesterday')).toThrow(/not a timestamp/);
  });
});

describe('split config shapes', () => {
  it('POST answers exactly the spec fields', () => {
    expect(presentSplitConfigCreated(config)).toEqual({
      result: 'success',
      split_config: {
        public_id: config.public_id,
        owner_business_id: 1,
        partner_business_id: 2,
        split_type: 'percentage',
        split_value: 250,
        split_role: 'fee',
        currency: 'USD',
        description: null,
        is_active: true,
      },
      message: 'Split config created',
    });
  });

  it('GET adds date_created, the count of every config and has_more', () => {
    const list = presentSplitConfigList({ split_configs: [config], count: 3, has_more: true });
    expect(list.count).toBe(3);
    expect(list.has_more).toBe(true);
    expect(list.split_configs[0]).toMatchObject({ public_id: config.public_id, date_created: '2026-01-05 09:08:07' });
    expect(Object.keys(list.split_configs[0])).not.toContain('date_updated');
  });
});

describe('ledger shape', () => {
  it('has the spec fields only, integers for ids and amounts', () => {
    const entry: LedgerEntryView = {
      public_id: '1f8fad5b-d9cb-469f-a165-70867728950e',
      kind: 'reversal',
      transaction_id: 41,
      transaction_public_id: 'txn_41',
      split_config_id: 7,
      creditor_business_id: 2,
      debtor_business_id: 1,
      amount: -75,
      currency: 'USD',
      status: 'pending',
      invoice_reference: null,
      settlement_date: null,
      date_created: '2026-01-05T09:08:07.000Z',
    };
    const body = presentLedger([entry], 12, true);
    expect(body).toEqual({
      result: 'success',
      count: 12,
      has_more: true,
      ledger_entries: [
        {
          public_id: entry.public_id,
          transaction_id: 41,
          split_config_id: 7,
          creditor_business_id: 2,
          debtor_business_id: 1,
          amount: -75,
          currency: 'USD',
          status: 'pending',
          invoice_reference: null,
          settlement_date: null,
          date_created: '2026-01-05 09:08:07',
        },
      ],
    });
  });
});
