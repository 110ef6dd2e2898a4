import { Injectable } from '@nestjs/common';
import {
  DataSource,
  type EntityManager,
  columnList,
  jsonInsert,
  keysetPage,
  qualify,
  queryRows,
} from '@payments/database';
import {
  ErrorCodes,
  type CursorPageBody,
  type LinkSplit,
  type LinkView,
  type Metadata,
  type Mode,
} from '@payments/contracts';
import { DomainException, publicId, unknownCursor } from '@payments/platform';

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

const LINK_COLUMNS = columnList<LinkRow>({
  id: true,
  public_id: true,
  business_id: true,
  mode: true,
  amount: true,
  charges: true,
  currency: true,
  description: true,
  metadata: true,
  splits: true,
  success_url: true,
  failure_url: true,
  active: true,
  created_at: true,
  updated_at: true,
  deactivated_at: true,
});

/** A new link as its creator gives it: the columns its insert writes, named as they are. */
export type NewLink = Pick<
  LinkRow,
  'business_id' | 'mode' | 'currency' | 'description' | 'metadata' | 'splits' | 'success_url' | 'failure_url'
> & { amount: number; charges: number };

const INSERT_LINK = jsonInsert<NewLink & Pick<LinkRow, 'public_id'>>({
  into: 'payment_links',
  fields: {
    public_id: 'text',
    business_id: 'integer',
    mode: 'text',
    amount: 'bigint',
    charges: 'bigint',
    currency: 'text',
    description: 'text',
    metadata: 'jsonb',
    splits: 'jsonb',
    success_url: 'text',
    failure_url: 'text',
  },
});

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

  async create(link: NewLink): Promise<LinkRow> {
    const [row] = await queryRows<LinkRow>(
      this.ds,
      `${INSERT_LINK.text} RETURNING ${LINK_COLUMNS}`,
      INSERT_LINK.params({ ...link, public_id: publicId('plink') }),
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
      `SELECT ${LINK_COLUMNS} FROM payment_links WHERE public_id = $1${forPayment ? ' FOR SHARE' : ''}`,
      [id],
    );
    return row;
  }

  async get(businessId: number, mode: Mode, id: string): Promise<LinkRow> {
    const [row] = await queryRows<LinkRow>(
      this.ds,
      `SELECT ${LINK_COLUMNS} FROM payment_links WHERE public_id = $1 AND business_id = $2 AND mode = $3`,
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
        `SELECT ${LINK_COLUMNS} FROM payment_links WHERE public_id = $1 AND business_id = $2 AND mode = $3 FOR UPDATE`,
        [id, businessId, mode],
      );
      if (!current) throw linkNotFound(id);
      const next = change(current);
      const [row] = await queryRows<LinkRow>(
        m,
        `UPDATE payment_links SET description = d.description, metadata = d.metadata, updated_at = now()
           FROM jsonb_to_record($2::jsonb) AS d(description text, metadata jsonb)
          WHERE id = $1 RETURNING ${qualify(LINK_COLUMNS, 'payment_links')}`,
        [current.id, JSON.stringify(next)],
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
        WHERE public_id = $1 AND business_id = $2 AND mode = $3 RETURNING ${LINK_COLUMNS}`,
      [id, businessId, mode],
    );
    if (!row) throw linkNotFound(id);
    return row;
  }

  /** Newest first; a cursor naming no link of this business and mode is a validation error. */
  list(businessId: number, mode: Mode, page: CursorPageBody): Promise<{ rows: LinkRow[]; hasMore: boolean }> {
    return keysetPage<LinkRow>(this.ds, {
      table: 'payment_links',
      columns: LINK_COLUMNS,
      scope: ['business_id = $1', 'mode = $2'],
      params: [businessId, mode],
      cursorColumn: 'public_id',
      page,
      unknownCursor: unknownCursor('payment link'),
    });
  }
}
