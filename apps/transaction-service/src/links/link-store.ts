import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, keysetPage, queryRows } from '@payments/database';
import {
  ErrorCodes,
  type CursorPageBody,
  type LinkSplit,
  type LinkView,
  type Metadata,
  type Mode,
} from '@payments/contracts';
import { DomainException, publicId, unknownCursor } from '@payments/platform';
import { annotationsParam } from '../transactions/transaction-store';

export interface LinkRow {
  id: string;
  public_id: string;
  business_id: number;
  mode: Mode;
  amount: string;
  charges: string;
  currency: string;
  description: string;
  metadata: Metadata;
  splits: LinkSplit[];
  success_url: string | null;
  failure_url: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  deactivated_at: Date | null;
}

export interface NewLink {
  businessId: number;
  mode: Mode;
  amount: number;
  charges: number;
  currency: string;
  description: string;
  metadata: Metadata;
  splits: LinkSplit[];
  successUrl: string | null;
  failureUrl: string | null;
}

export function toLinkView(l: LinkRow): LinkView {
  const amount = Number(l.amount);
  const charges = Number(l.charges);
  return {
    payment_link_id: l.public_id,
    amount,
    charges,
    total: amount + charges,
    currency: l.currency.trim(),
    description: l.description,
    metadata: l.metadata ?? {},
    splits: l.splits,
    active: l.active,
    success_url: l.success_url,
    failure_url: l.failure_url,
    date_created: l.created_at.toISOString(),
    date_updated: l.updated_at.toISOString(),
    date_deactivated: l.deactivated_at?.toISOString() ?? null,
  };
}

type Db = DataSource | EntityManager;
const linkNotFound = (id: string) => new DomainException(ErrorCodes.NotFound, `no payment link ${id}`);

/** Every statement on payment_links. Reads for a merchant are scoped to its business and mode. */
@Injectable()
export class LinkStore {
  constructor(private readonly ds: DataSource) {}

  async create(l: NewLink): Promise<LinkRow> {
    const [row] = await queryRows<LinkRow>(
      this.ds,
      `INSERT INTO payment_links
         (public_id, business_id, mode, amount, charges, currency, description, splits, success_url, failure_url,
          metadata)
       VALUES ($1,$2,$3,$4,$5,$6,($10::jsonb)->>'description',$7,$8,$9,($10::jsonb)->'metadata') RETURNING *`,
      [
        publicId('plink'),
        l.businessId,
        l.mode,
        l.amount,
        l.charges,
        l.currency,
        JSON.stringify(l.splits),
        l.successUrl,
        l.failureUrl,
        annotationsParam(l.metadata, l.description),
      ],
    );
    return row;
  }

  /**
   * By the public id alone: the hosted page, where the id is the capability. `forPayment` share-locks
   * the row until the payment's transaction commits, so a deactivation either waits for a payment
   * already under way or is seen by it: none is created through a link after it was deactivated.
   */
  async byPublicId(db: Db, id: string, { forPayment = false } = {}): Promise<LinkRow | undefined> {
    const [row] = await queryRows<LinkRow>(
      db,
      `SELECT * FROM payment_links WHERE public_id = $1${forPayment ? ' FOR SHARE' : ''}`,
      [id],
    );
    return row;
  }

  async get(businessId: number, mode: Mode, id: string): Promise<LinkRow> {
    const [row] = await queryRows<LinkRow>(
      this.ds,
      'SELECT * FROM payment_links WHERE public_id = $1 AND business_id = $2 AND mode = $3',
      [id, businessId, mode],
    );
    if (!row) throw linkNotFound(id);
    return row;
  }

  /**
   * A merchant's update of description and metadata. The row is locked while the new metadata is
   * worked out from the current one, so two updates of different keys both take effect.
   * `change` returns the new values, or throws to refuse them (nothing is written).
   */
  async update(
    businessId: number,
    mode: Mode,
    id: string,
    change: (current: LinkRow) => { description: string; metadata: Metadata },
  ): Promise<LinkRow> {
    return this.ds.transaction(async (m) => {
      const [current] = await queryRows<LinkRow>(
        m,
        'SELECT * FROM payment_links WHERE public_id = $1 AND business_id = $2 AND mode = $3 FOR UPDATE',
        [id, businessId, mode],
      );
      if (!current) throw linkNotFound(id);
      const next = change(current);
      const [row] = await queryRows<LinkRow>(
        m,
        `UPDATE payment_links SET description = ($2::jsonb)->>'description', metadata = ($2::jsonb)->'metadata',
                updated_at = now()
          WHERE id = $1 RETURNING *`,
        [current.id, annotationsParam(next.metadata, next.description)],
      );
      return row;
    });
  }

  /** Idempotent: deactivating an inactive link leaves it (and its deactivation date) as it was. */
  async deactivate(businessId: number, mode: Mode, id: string): Promise<LinkRow> {
    const [row] = await queryRows<LinkRow>(
      this.ds,
      `UPDATE payment_links SET active = false, deactivated_at = COALESCE(deactivated_at, now()),
              updated_at = CASE WHEN active THEN now() ELSE updated_at END
        WHERE public_id = $1 AND business_id = $2 AND mode = $3 RETURNING *`,
      [id, businessId, mode],
    );
    if (!row) throw linkNotFound(id);
    return row;
  }

  /** Newest first; a cursor naming no link of this business and mode is a validation error. */
  list(businessId: number, mode: Mode, page: CursorPageBody): Promise<{ rows: LinkRow[]; hasMore: boolean }> {
    return keysetPage<LinkRow>(this.ds, {
      table: 'payment_links',
      scope: ['business_id = $1', 'mode = $2'],
      params: [businessId, mode],
      cursorColumn: 'public_id',
      page,
      unknownCursor: unknownCursor('payment link'),
    });
  }
}
