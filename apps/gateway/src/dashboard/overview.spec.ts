import { totalsByDay } from './overview';

describe('overview totals by day', () => {
  it('adds up the currencies of a day, keeps the volume per currency, and keeps empty days', () => {
    const t = (date: string, currency: string, payments: number, succeeded: number, succeeded_amount: number) => ({
      date,
      currency,
      payments,
      succeeded,
      succeeded_amount,
    });
    const days = totalsByDay(
      [
        t('2025-02-28', 'USD', 1, 1, 1),
        t('2025-03-01', 'USD', 2, 1, 500),
        t('2025-03-01', 'ZAR', 3, 0, 0),
        t('2025-03-03', 'ZAR', 1, 1, 250),
      ],
      '2025-03-01',
      '2025-03-03',
    );
    expect(days).toEqual([
      { date: '2025-03-01', payments: 5, succeeded: 1, volume: { USD: 500 } },
      { date: '2025-03-02', payments: 0, succeeded: 0, volume: {} },
      { date: '2025-03-03', payments: 1, succeeded: 1, volume: { ZAR: 250 } },
    ]);
  });
});
