import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ErrorCodes, MODES, type KeyType, type Mode } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import { displayPrefix, hashApiKey, newApiKey } from '../auth/api-key-format';
import { ApiKeysService } from '../auth/api-keys.service';

export interface CreatedBusiness {
  business: { id: number; name: string };
  api_keys: Record<Mode, { secret: string; public: string }>;
}

/** Provisioning of businesses and their keys (admin API). Keys are returned once, then only hashes remain. */
@Injectable()
export class BusinessesService {
  constructor(
    private readonly ds: DataSource,
    private readonly keys: ApiKeysService,
  ) {}

  async create(name: string): Promise<CreatedBusiness> {
    return this.ds.transaction(async (m) => {
      const [business]: { id: number; name: string }[] = await m.query('INSERT INTO businesses (name) VALUES ($1) RETURNING id, name', [name]);
      const keys = {} as CreatedBusiness['api_keys'];
      for (const mode of MODES) {
        keys[mode] = { secret: await this.issue(m, business.id, mode, 'secret'), public: await this.issue(m, business.id, mode, 'public') };
      }
      return { business, api_keys: keys };
    });
  }

  /** Issues a new key; the current one(s) of that mode and type stop working after `graceSeconds`. */
  async roll(businessId: number, mode: Mode, type: KeyType, graceSeconds: number): Promise<{ key: string; previous_key_expires_at: string }> {
    const rolled = await this.ds.transaction(async (m) => {
      const found = await m.query('SELECT id FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);
      if (found.length === 0) throw new ApiException(ErrorCodes.NotFound, `no business ${businessId}`);
      const [{ expires }] = await m.query('SELECT now() + make_interval(secs => $1) AS expires', [graceSeconds]);
      await m.query(
        `UPDATE api_keys SET expires_at = LEAST(COALESCE(expires_at, $4), $4)
          WHERE business_id = $1 AND mode = $2 AND key_type = $3 AND revoked_at IS NULL`,
        [businessId, mode, type, expires],
      );
      const key = await this.issue(m, businessId, mode, type);
      return { key, previous_key_expires_at: new Date(expires).toISOString() };
    });
    await this.keys.forget(businessId);
    return rolled;
  }

  /** The ids among `ids` that are not businesses. */
  async missing(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows: { id: number }[] = await this.ds.query('SELECT id FROM businesses WHERE id = ANY($1::int[])', [ids]);
    const found = new Set(rows.map((r) => r.id));
    return [...new Set(ids.filter((id) => !found.has(id)))];
  }

  async name(businessId: number): Promise<string | null> {
    const rows: { name: string }[] = await this.ds.query('SELECT name FROM businesses WHERE id = $1', [businessId]);
    return rows[0]?.name ?? null;
  }

  private async issue(m: EntityManager, businessId: number, mode: Mode, type: KeyType): Promise<string> {
    const key = newApiKey(type, mode);
    await m.query('INSERT INTO api_keys (business_id, mode, key_type, key_hash, prefix) VALUES ($1,$2,$3,$4,$5)', [
      businessId,
      mode,
      type,
      hashApiKey(key),
      displayPrefix(key),
    ]);
    return key;
  }
}
