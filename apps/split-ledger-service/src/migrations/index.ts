import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { SplitsLedgerSettlement1764000000000 } from './1764000000000-splits-ledger-settlement';
import { LedgerEntriesOfTransaction1765400000000 } from './1765400000000-ledger-entries-of-transaction';
import { LedgerDailyTotals1765600000000 } from './1765600000000-ledger-daily-totals';

/** In order; a new migration is appended here. */
export const migrations = [
  InitialSchema1763800000000,
  SplitsLedgerSettlement1764000000000,
  LedgerEntriesOfTransaction1765400000000,
  LedgerDailyTotals1765600000000,
];
