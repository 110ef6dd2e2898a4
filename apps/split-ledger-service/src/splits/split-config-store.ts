import { Injectable } from '@nestjs/common';
import {
  type EntityManager,
  columnList,
  jsonInsert,
  keysetPage,
  queryRows,
  type PageRequest,
} from '@payments/database';
import {
  ErrorCodes,
  UUID_PATTERN,
  type Mode,
  type SplitConfigView,
  type SplitRole,
  type SplitType,
} from '@payments/contracts';
import { DomainException, unknownCursor } from '@payments/platform';

/** The page size when no limit is asked: the whole list (keysetPage reads one row more, still an exact integer). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER - 1;

/** A split_configs row as PostgreSQL returns it (bigint columns arrive as strings). */
export interface SplitConfigRow {
  id: string;
  public_id: string;
  owner_business_id: number;
  partner_business_id: number;
  mode: Mode;
  currency: string;
  split_type: SplitType;
  split_value: string;
  split_role: SplitRole;
  description: string | null;
  is_active: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** Every column of SplitConfigRow: what each statement reads or returns, so a row is exactly this type. */
const CONFIG_COLUMNS = columnList<SplitConfigRow>({
  id: true,
  public_id: true,
  owner_business_id: true,
  partner_business_id: true,
  mode: true,
  currency: true,
  split_type: true,
  split_value: true,
  split_role: true,
  description: true,
  is_active: true,
  version: true,
  created_at: true,
  updated_at: true,
});

/** A config's terms as they stood at some instant (a split_config_versions row joined with its config). */
export interface SplitVersionRow {
  split_config_id: string;
  version: number;
  partner_business_id: number;
  split_type: SplitType;
  split_value: string;
  split_role: SplitRole;
}

export interface SplitTerms {
  split_type: SplitType;
  split_value: number;
  split_role: SplitRole;
  description: string | null;
}

/** A new config as its creator gives it: the columns its insert writes, named as they are. */
export type NewSplitConfig = Pick<SplitConfigRow, 'owner_business_id' | 'partner_business_id' | 'mode' | 'currency'> &
  SplitTerms;

const INSERT_CONFIG = jsonInsert<NewSplitConfig>({
  into: 'split_configs',
  fields: {
    owner_business_id: 'integer',
    partner_business_id: 'integer',
    mode: 'text',
    currency: 'text',
    split_type: 'text',
    split_value: 'bigint',
    split_role: 'text',
    description: 'text',
  },
});

/** A config's terms from now on: a split_config_versions row as it is opened (valid_from now, valid_to null). */
type NewSplitVersion = Pick<SplitConfigRow, 'version' | 'split_type' | 'split_value' | 'split_role' | 'description'> & {
  split_config_id: string;
};

const INSERT_VERSION = jsonInsert<NewSplitVersion>({
  into: 'split_config_versions',
  fields: {
    split_config_id: 'bigint',
    version: 'integer',
    split_type: 'text',
    split_value: 'bigint',
    split_role: 'text',
    description: 'text',
  },
  computed: { valid_from: 'now()' },
});

export function toSplitConfigView(r: SplitConfigRow): SplitConfigView {
  return {
    public_id: r.public_id,
    owner_business_id: r.owner_business_id,
    partner_business_id: r.partner_business_id,
    split_type: r.split_type,
    split_value: Number(r.split_value),
    split_role: r.split_role,
    currency: r.currency.trim(),
    description: r.description,
    is_active: r.is_active,
    date_created: r.created_at.toISOString(),
    date_updated: r.updated_at.toISOString(),
  };
}

/**
 * split_configs and their version history. Every change closes the current version
 * (valid_to = now()) and opens the next one, in the caller's DB transaction, so the terms in force
 * at any instant are exactly one version (or none once deactivated).
 */
/** Whose terms are asked for, under a key of the caller's. */
export interface TermsSubject {
  key: string;
  owner: number;
  mode: Mode;
  currency: string;
  at: string;
}

@Injectable()
export class SplitConfigStore {
  async create(m: EntityManager, c: NewSplitConfig): Promise<SplitConfigRow> {
    const [row] = await queryRows<SplitConfigRow>(
      m,
      `${INSERT_CONFIG.text} RETURNING ${CONFIG_COLUMNS}`,
      INSERT_CONFIG.params(c),
    );
    await this.openVersion(m, row);
    return row;
  }

  /** The config, locked, if it belongs to this business and mode; 404 otherwise (also for a malformed id). */
  async lockOwned(m: EntityManager, publicId: string, owner: number, mode: Mode): Promise<SplitConfigRow> {
    const rows = UUID_PATTERN.test(publicId)
      ? await queryRows<SplitConfigRow>(
          m,
          `SELECT ${CONFIG_COLUMNS} FROM split_configs
            WHERE public_id = $1 AND owner_business_id = $2 AND mode = $3 FOR UPDATE`,
          [publicId, owner, mode],
        )
      : [];
    if (rows.length === 0) throw new DomainException(ErrorCodes.NotFound, `no split config ${publicId}`);
    return rows[0];
  }

  /**
   * Newest first; with a limit, one cursor page (cursors are public ids). `count` is every config
   * of the business and mode, whatever the page: counted only when the page is not the whole list.
   */
  async pageOwned(
    m: Pick<EntityManager, 'query'>,
    owner: number,
    mode: Mode,
    page: Omit<PageRequest, 'limit'> & { limit?: number },
  ): Promise<{ rows: SplitConfigRow[]; hasMore: boolean; count: number }> {
    const { rows, hasMore } = await keysetPage<SplitConfigRow>(m, {
      table: 'split_configs',
      columns: CONFIG_COLUMNS,
      scope: ['owner_business_id = $1', 'mode = $2'],
      params: [owner, mode],
      cursorColumn: 'public_id',
      orderBy: ['id'],
      page: { ...page, limit: page.limit ?? NO_LIMIT },
      unknownCursor: unknownCursor('split config'),
    });
    const whole = !hasMore && page.starting_after === undefined && page.ending_before === undefined && !page.skip;
    if (whole) return { rows, hasMore, count: rows.length };
    const [{ n }] = await queryRows<{ n: number }>(
      m,
      'SELECT count(*)::int AS n FROM split_configs WHERE owner_business_id = $1 AND mode = $2',
      [owner, mode],
    );
    return { rows, hasMore, count: n };
  }

  async update(m: EntityManager, current: SplitConfigRow, terms: SplitTerms): Promise<SplitConfigRow> {
    const [row] = await queryRows<SplitConfigRow>(
      m,
      `UPDATE split_configs SET split_type = $2, split_value = $3, split_role = $4, description = $5,
                                version = version + 1, updated_at = now()
        WHERE id = $1 RETURNING ${CONFIG_COLUMNS}`,
      [current.id, terms.split_type, terms.split_value, terms.split_role, terms.description],
    );
    await this.closeVersion(m, current.id);
    await this.openVersion(m, row);
    return row;
  }

  async deactivate(m: EntityManager, current: SplitConfigRow): Promise<SplitConfigRow> {
    const [row] = await queryRows<SplitConfigRow>(
      m,
      `UPDATE split_configs SET is_active = false, updated_at = now() WHERE id = $1 RETURNING ${CONFIG_COLUMNS}`,
      [current.id],
    );
    await this.closeVersion(m, current.id);
    return row;
  }

  /**
   * The terms in force at `at` for (owner, mode, currency). `at` has millisecond precision (from the event), so
   * intervals are compared at that precision: a change in the same millisecond as the transaction applies to it.
   */
  async versionsInForce(
    m: EntityManager,
    owner: number,
    mode: Mode,
    currency: string,
    at: string,
  ): Promise<SplitVersionRow[]> {
    return queryRows<SplitVersionRow>(
      m,
      `SELECT v.split_config_id, v.version, c.partner_business_id, v.split_type, v.split_value, v.split_role
         FROM split_configs c JOIN split_config_versions v ON v.split_config_id = c.id
        WHERE c.owner_business_id = $1 AND c.mode = $2 AND c.currency = $3
          AND date_trunc('milliseconds', v.valid_from) <= $4
          AND (v.valid_to IS NULL OR date_trunc('milliseconds', v.valid_to) > $4)
        ORDER BY c.id`,
      [owner, mode, currency, at],
    );
  }

  /**
   * versionsInForce() of several (owner, mode, currency, at) in one statement, by their key; a key
   * with no terms in force is absent. For reconciliation, which plans a page of transactions.
   */
  async versionsInForceMany(m: EntityManager, subjects: TermsSubject[]): Promise<Map<string, SplitVersionRow[]>> {
    if (subjects.length === 0) return new Map();
    const rows = await queryRows<SplitVersionRow & { key: string }>(
      m,
      `SELECT s.key, v.split_config_id, v.version, c.partner_business_id, v.split_type, v.split_value, v.split_role
         FROM jsonb_to_recordset($1::jsonb) AS s(key text, owner integer, mode text, currency text, at timestamptz)
         JOIN split_configs c ON c.owner_business_id = s.owner AND c.mode = s.mode AND c.currency = s.currency
         JOIN split_config_versions v ON v.split_config_id = c.id
          AND date_trunc('milliseconds', v.valid_from) <= s.at
          AND (v.valid_to IS NULL OR date_trunc('milliseconds', v.valid_to) > s.at)
        ORDER BY s.key, c.id`,
      [JSON.stringify(subjects)],
    );
    const byKey = new Map<string, SplitVersionRow[]>();
    for (const { key, ...version } of rows) byKey.set(key, [...(byKey.get(key) ?? []), version]);
    return byKey;
  }

  /** Of several (owner, mode, currency, at), the keys of those with any config terms in force. */
  async withTermsInForce(m: EntityManager, subjects: TermsSubject[]): Promise<Set<string>> {
    return new Set((await this.versionsInForceMany(m, subjects)).keys());
  }

  // now() is the DB transaction's start: the closing and the opening instant are the same, so
  // [valid_from, valid_to) intervals of one config never overlap and leave no gap.
  private async openVersion(m: EntityManager, row: SplitConfigRow): Promise<void> {
    const { id, version, split_type, split_value, split_role, description } = row;
    await m.query(
      INSERT_VERSION.text,
      INSERT_VERSION.params({ split_config_id: id, version, split_type, split_value, split_role, description }),
    );
  }

  private async closeVersion(m: EntityManager, configId: string): Promise<void> {
    await m.query('UPDATE split_config_versions SET valid_to = now() WHERE split_config_id = $1 AND valid_to IS NULL', [
      configId,
    ]);
  }
}
