import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, jsonInsert, queryRows } from '@payments/database';
import type { KeyType, Mode } from '@payments/contracts';

/** What a valid key stands for. */
export interface ApiKeyRow {
  business_id: number;
  mode: Mode;
  key_type: KeyType;
  expires_at: Date | null;
}

/** A new key as it is stored: its hash and a display prefix, never the key. */
export interface NewApiKey {
  business_id: number;
  mode: Mode;
  key_type: KeyType;
  key_hash: string;
  prefix: string;
}

const INSERT_KEY = jsonInsert<NewApiKey>({
  into: 'api_keys',
  fields: { business_id: 'integer', mode: 'text', key_type: 'text', key_hash: 'text', prefix: 'text' },
});

/** Every read and write of `api_keys`; only SHA-256 hashes of keys are stored. */
@Injectable()
export class ApiKeyStore {
  constructor(private readonly ds: DataSource) {}

  async insert(m: EntityManager, key: NewApiKey): Promise<void> {
    await m.query(INSERT_KEY.text, INSERT_KEY.params(key));
  }

  /**
   * The current keys of that mode and type stop working `graceSeconds` from now by the database's
   * clock, which every expiry check compares with (or sooner, if they already would); answers
   * that time.
   */
  async expireCurrent(
    m: EntityManager,
    businessId: number,
    mode: Mode,
    type: KeyType,
    graceSeconds: number,
  ): Promise<Date> {
    const [{ expires }] = await queryRows<{ expires: Date }>(
      m,
      `WITH t AS (SELECT now() + make_interval(secs => $4) AS expires),
        expired AS (
          UPDATE api_keys SET expires_at = LEAST(COALESCE(expires_at, (SELECT expires FROM t)), (SELECT expires FROM t))
           WHERE business_id = $1 AND mode = $2 AND key_type = $3 AND revoked_at IS NULL)
       SELECT expires FROM t`,
      [businessId, mode, type, graceSeconds],
    );
    return expires;
  }

  /** The key with this hash, if it is neither revoked nor expired. */
  async valid(hash: string): Promise<ApiKeyRow | undefined> {
    const [row] = await queryRows<ApiKeyRow>(
      this.ds,
      `SELECT business_id, mode, key_type, expires_at FROM api_keys
        WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [hash],
    );
    return row;
  }

  /** The keys of a business and mode that still work, by display prefix (the keys themselves are not stored). */
  async working(
    businessId: number,
    mode: Mode,
  ): Promise<{ key_type: KeyType; prefix: string; created_at: Date; expires_at: Date | null }[]> {
    return queryRows(
      this.ds,
      `SELECT key_type, prefix, created_at, expires_at FROM api_keys
        WHERE business_id = $1 AND mode = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        ORDER BY key_type, created_at DESC`,
      [businessId, mode],
    );
  }
}
