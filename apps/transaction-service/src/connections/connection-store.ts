import { Injectable } from '@nestjs/common';
import { DataSource, columnList, jsonInsert, queryRows } from '@payments/database';
import type { ConnectionProvider, ConnectionView, Mode } from '@payments/contracts';
import { PROVIDER_CONNECTIONS } from '@payments/domain';
import { CredentialsCipher, type CredentialScope } from './credentials-cipher';

export interface ConnectionRow {
  id: string;
  business_id: number;
  mode: Mode;
  provider: ConnectionProvider;
  /** Sealed by CredentialsCipher: never the plaintext. */
  credentials: string;
  account: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** Every column of ConnectionRow: what each statement reads or returns whole, so a row is exactly this type. */
const CONNECTION_COLUMNS = columnList<ConnectionRow>({
  id: true,
  business_id: true,
  mode: true,
  provider: true,
  credentials: true,
  account: true,
  version: true,
  created_at: true,
  updated_at: true,
});

/** A connection as it is written: its credentials sealed (CredentialsCipher). */
const INSERT_CONNECTION = jsonInsert<
  Pick<ConnectionRow, 'business_id' | 'mode' | 'provider' | 'credentials' | 'account'>
>({
  into: 'provider_connections',
  fields: { business_id: 'integer', mode: 'text', provider: 'text', credentials: 'text', account: 'text' },
});

/** What the API shows of a connection: never its credentials. */
export function toConnectionView(row: ConnectionSummaryRow): ConnectionView {
  return {
    provider: row.provider,
    mode: row.mode,
    account: row.account,
    methods: [...PROVIDER_CONNECTIONS[row.provider].methods],
    date_created: row.created_at.toISOString(),
    date_updated: row.updated_at.toISOString(),
  };
}

const scopeOf = (row: ConnectionRow): CredentialScope => ({
  businessId: row.business_id,
  mode: row.mode,
  provider: row.provider,
});

/** A connection as a merchant-facing read has it: the sealed credentials stay in the table. */
export type ConnectionSummaryRow = Omit<ConnectionRow, 'credentials'>;

const VIEW_COLUMNS = columnList<ConnectionSummaryRow>({
  id: true,
  business_id: true,
  mode: true,
  provider: true,
  account: true,
  version: true,
  created_at: true,
  updated_at: true,
});

/**
 * Every statement on provider_connections. Credentials are sealed before they reach SQL and opened
 * only by `credentialsFor` and the key rotation, so no statement parameter or merchant-facing read
 * holds them in the clear.
 */
@Injectable()
export class ConnectionStore {
  constructor(
    private readonly ds: DataSource,
    private readonly cipher: CredentialsCipher,
  ) {}

  /** The id of the key new credentials are sealed with. */
  get currentKeyId(): string {
    return this.cipher.keyId;
  }

  /**
   * Replaces the credentials of one business, mode and provider (creates the row the first time).
   * The same credentials again change nothing (the row, its dates and version stay), so a PUT
   * repeated answers the same; a row that can no longer be opened is overwritten.
   */
  async put(
    scope: CredentialScope,
    credentials: Readonly<Record<string, string>>,
    account: string,
  ): Promise<ConnectionRow> {
    return this.ds.transaction(async (m) => {
      const [current] = await queryRows<ConnectionRow>(
        m,
        `SELECT ${CONNECTION_COLUMNS} FROM provider_connections
          WHERE business_id = $1 AND mode = $2 AND provider = $3 FOR UPDATE`,
        [scope.businessId, scope.mode, scope.provider],
      );
      if (current && current.account === account && this.holds(current, credentials)) return current;
      // Two first PUTs at once both find no row: the later insert becomes an update.
      const connection = {
        business_id: scope.businessId,
        mode: scope.mode,
        provider: scope.provider,
        credentials: this.cipher.seal(credentials, scope),
        account,
      };
      const [row] = await queryRows<ConnectionRow>(
        m,
        `${INSERT_CONNECTION.text}
         ON CONFLICT (business_id, mode, provider) DO UPDATE
           SET credentials = EXCLUDED.credentials, account = EXCLUDED.account, updated_at = now(),
               version = provider_connections.version + 1
         RETURNING ${CONNECTION_COLUMNS}`,
        INSERT_CONNECTION.params(connection),
      );
      return row;
    });
  }

  async get(businessId: number, mode: Mode, provider: ConnectionProvider): Promise<ConnectionSummaryRow | undefined> {
    const [row] = await queryRows<ConnectionSummaryRow>(
      this.ds,
      `SELECT ${VIEW_COLUMNS} FROM provider_connections WHERE business_id = $1 AND mode = $2 AND provider = $3`,
      [businessId, mode, provider],
    );
    return row;
  }

  /** Newest first (a business has at most one per provider and mode). */
  list(businessId: number, mode: Mode): Promise<ConnectionSummaryRow[]> {
    return queryRows<ConnectionSummaryRow>(
      this.ds,
      `SELECT ${VIEW_COLUMNS} FROM provider_connections WHERE business_id = $1 AND mode = $2
        ORDER BY created_at DESC, id DESC`,
      [businessId, mode],
    );
  }

  /** True when a connection was removed; false when there was none. */
  async remove(businessId: number, mode: Mode, provider: ConnectionProvider): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.ds,
      'DELETE FROM provider_connections WHERE business_id = $1 AND mode = $2 AND provider = $3 RETURNING id',
      [businessId, mode, provider],
    );
    return rows.length > 0;
  }

  /**
   * A connection's decrypted credentials, for calling the provider; null when not connected. Throws
   * CredentialsUnreadable when the stored value cannot be opened (key gone, or altered). Never log
   * what it returns.
   */
  async credentialsFor(
    businessId: number,
    mode: Mode,
    provider: ConnectionProvider,
  ): Promise<Record<string, string> | null> {
    const [row] = await queryRows<Pick<ConnectionRow, 'credentials'>>(
      this.ds,
      'SELECT credentials FROM provider_connections WHERE business_id = $1 AND mode = $2 AND provider = $3',
      [businessId, mode, provider],
    );
    return row ? this.cipher.open(row.credentials, { businessId, mode, provider }) : null;
  }

  /**
   * Key rotation: reseals with the current key up to `limit` rows after `afterId` still sealed with
   * an old key; a row that does not open (altered) is counted and left as it is, rows another
   * replica is rotating are skipped. `lastId` is where the next batch starts (null: nothing found).
   */
  async resealBatch(
    afterId: string,
    limit: number,
  ): Promise<{ resealed: number; unreadable: number; lastId: string | null }> {
    const older = this.cipher.olderKeyIds;
    if (older.length === 0) return { resealed: 0, unreadable: 0, lastId: null };
    return this.ds.transaction(async (m) => {
      const rows = await queryRows<ConnectionRow>(
        m,
        `SELECT ${CONNECTION_COLUMNS} FROM provider_connections
          WHERE id > $1 AND split_part(credentials, '.', 2) = ANY($2::text[])
          ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [afterId, older, limit],
      );
      let unreadable = 0;
      for (const row of rows) {
        let credentials: Record<string, string>;
        try {
          credentials = this.cipher.open(row.credentials, scopeOf(row));
        } catch {
          unreadable += 1;
          continue;
        }
        await m.query('UPDATE provider_connections SET credentials = $2, version = version + 1 WHERE id = $1', [
          row.id,
          this.cipher.seal(credentials, scopeOf(row)),
        ]);
      }
      return { resealed: rows.length - unreadable, unreadable, lastId: rows.at(-1)?.id ?? null };
    });
  }

  /** Whether the row's sealed credentials are exactly these (false when it cannot be opened). */
  private holds(row: ConnectionRow, credentials: Readonly<Record<string, string>>): boolean {
    try {
      const stored = this.cipher.open(row.credentials, scopeOf(row));
      const keys = Object.keys(credentials);
      return keys.length === Object.keys(stored).length && keys.every((k) => stored[k] === credentials[k]);
    } catch {
      return false;
    }
  }
}
