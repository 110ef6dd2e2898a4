import { Injectable } from '@nestjs/common';
import type { DashboardApi } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { BusinessesService } from '../businesses/businesses.service';
import type { ApiRequest } from '../http/http-types';

/** Business id (as a JSON key) → name. An id missing from it is shown as the bare id. */
export type BusinessNames = DashboardApi.BusinessNames;

/**
 * Names of the businesses that pay the session's business through their own split terms (the
 * debtors of the entries and invoices it is creditor of). A business is named only to one it chose
 * to pay: an id a business typed itself (partners, what it owes) is never looked up, since anyone
 * may type any id. One query per answer; if it fails the answer goes out without names (the pages
 * show the ids).
 */
@Injectable()
export class PartnerNames {
  constructor(private readonly businesses: BusinessesService) {}

  /**
   * The names of the debtors of the split entries (not reversals) whose creditor is the session's
   * business: a split entry's debtor is the business whose own terms made it. An invoice's
   * direction is not used: netting can turn it (a refund's reversal makes the net negative), so an
   * invoice can have as debtor a business that never chose to pay.
   */
  payersOf(
    req: ApiRequest,
    entries: { kind: string; creditor_business_id: number; debtor_business_id: number }[],
  ): Promise<BusinessNames> {
    const own = req.dashboard!.user.business_id;
    return this.of(
      req,
      entries.filter((e) => e.kind === 'split' && e.creditor_business_id === own).map((e) => e.debtor_business_id),
    );
  }

  /** The names of the counterparties that owe the session's business something. */
  owingOf(req: ApiRequest, rows: { business_id: number; owed_to_you: number }[]): Promise<BusinessNames> {
    return this.of(
      req,
      rows.filter((r) => r.owed_to_you > 0).map((r) => r.business_id),
    );
  }

  private async of(req: ApiRequest, ids: Iterable<number>): Promise<BusinessNames> {
    const ownBusinessId = req.dashboard!.user.business_id;
    const others = [...new Set(ids)].filter((id) => id !== ownBusinessId);
    if (others.length === 0) return {};
    try {
      const found = await this.businesses.names(others);
      const names: BusinessNames = {};
      for (const [id, name] of found) names[String(id)] = name;
      return names;
    } catch (err) {
      rootLogger().warn(
        { err: (err as Error).message, business_id: ownBusinessId },
        'partner names not read; the page shows ids',
      );
      return {};
    }
  }
}
