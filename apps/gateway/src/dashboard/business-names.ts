import { Injectable } from '@nestjs/common';
import type { DashboardApi } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { BusinessesService } from '../businesses/businesses.service';
import type { ApiRequest } from '../http/http-types';

/** Business id (as a JSON key) → name. An id missing from it is shown as the bare id. */
export type BusinessNames = DashboardApi.BusinessNames;

/**
 * The names of the partner businesses an answer of the splits pages mentions. Businesses live in
 * the gateway's own database (no service has them), so this is one query per answer, however
 * many rows it has. Only ids the business's own configs, ledger and invoices name are looked up,
 * never an id the browser sends. Names are a convenience: when they cannot be read the answer
 * goes out without them (the pages show the ids) instead of failing.
 */
@Injectable()
export class PartnerNames {
  constructor(private readonly businesses: BusinessesService) {}

  /** The names of `ids` but the session's own business. */
  async of(req: ApiRequest, ids: Iterable<number>): Promise<BusinessNames> {
    const ownBusinessId = req.dashboard!.user.business_id;
    const others = [...new Set(ids)].filter((id) => id !== ownBusinessId);
    if (others.length === 0) return {};
    try {
      const found = await this.businesses.names(others);
      const names: BusinessNames = {};
      for (const [id, name] of found) names[String(id)] = name;
      return names;
    } catch (err) {
      rootLogger().warn({ err: (err as Error).message, business_id: ownBusinessId }, 'partner names not read; the page shows ids');
      return {};
    }
  }
}
