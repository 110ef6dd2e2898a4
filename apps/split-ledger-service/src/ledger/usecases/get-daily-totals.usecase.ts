import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import {
  DAILY_TOTALS_MAX_DAYS,
  type DailyTotalsBody,
  type DailyTotalsResult,
  type RpcRequest,
} from '@payments/contracts';
import { TransactionCopyStore } from '../transaction-copy-store';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD that names a real calendar day, as epoch days; NaN otherwise. */
function epochDay(value: unknown): number {
  if (typeof value !== 'string' || !DAY.test(value)) return NaN;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value ? NaN : t / 86_400_000;
}

/**
 * The caller's payments and successful volume per day and currency in its mode, from the totals
 * the ledger's consumer keeps (one index range read, whatever the volume). A range that is not
 * two real days in order, at most DAILY_TOTALS_MAX_DAYS long, has nothing in it.
 */
@Injectable()
export class GetDailyTotalsUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly copies: TransactionCopyStore,
  ) {}

  async execute({ ctx, body }: RpcRequest<DailyTotalsBody>): Promise<DailyTotalsResult> {
    const from = epochDay(body?.from);
    const to = epochDay(body?.to);
    if (!(from <= to && to - from < DAILY_TOTALS_MAX_DAYS)) return { daily_totals: [] };
    return { daily_totals: await this.copies.dailyTotals(this.ds, ctx.business_id, ctx.mode, body.from, body.to) };
  }
}
