import { totalsByDay } from './overview';

describe('overview totals by day', () => {
  it('counts payments and successes, sums successful volume per currency, and keeps empty days', () => {
    const t = (date_created: string, status: string, amount: number, currency = 'USD') => ({ date_created, status: status as 'success', amount, currency });
    const days = totalsByDay([t('2025-03-01T10:00:00.000Z', 'success', 500), t('2025-03-01T23:59:59.999Z', 'failed', 900), t('2025-03-03T00:00:00.000Z', 'success', 250, 'ZAR'), t('2025-02-28T12:00:00.000Z', 'success', 1)], '2025-03-01', '2025-03-03');
    expect(days).toEqual([
      { date: '2025-03-01', payments: 2, succeeded: 1, volume: { USD: 500 } },
      { date: '2025-03-02', payments: 0, succeeded: 0, volume: {} },
      { date: '2025-03-03', payments: 1, succeeded: 1, volume: { ZAR: 250 } },
    ]);
  });
});
