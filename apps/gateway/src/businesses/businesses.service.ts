import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from '@payments/database';
import { ErrorCodes, MODES, PG_INT_MAX, type KeyType, type Mode } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import { displayPrefix, hashApiKey, newApiKey } from '../auth/api-key-format';
import { ApiKeyStore } from '../auth/api-key-store';
import { ApiKeysService } from '../auth/api-keys.service';
import { BusinessStore } from './business-store';

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
    private readonly businesses: BusinessStore,
    private readonly keyStore: ApiKeyStore,
  ) {}

  async create(name: string): Promise<CreatedBusiness> {
    return this.ds.transaction(async (m) => {
      const business = await this.businesses.insert(m, name);
      const keys = {} as CreatedBusiness['api_keys'];
      for (const mode of MODES) {
        keys[mode] = {
          secret: await this.issue(m, business.id, mode, 'secret'),
          public: await this.issue(m, business.id, mode, 'public'),
        };
      }
      return { business, api_keys: keys };
    });
  }

  /** Issues a new key; the current one(s) of that mode and type stop working after `graceSeconds`. */
  async roll(
    businessId: number,
    mode: Mode,
    type: KeyType,
    graceSeconds: number,
  ): Promise<{ key: string; previous_key_expires_at: string }> {
    const rolled = await this.ds.transaction(async (m) => {
      if (!(await this.businesses.lock(m, businessId)))
        throw new ApiException(ErrorCodes.NotFound, `no business ${businessId}`);
      const expires = await this.keyStore.expireCurrent(m, businessId, mode, type, graceSeconds);
      const key = await this.issue(m, businessId, mode, type);
      return { key, previous_key_expires_at: new Date(expires).toISOString() };
    });
    await this.keys.forget(businessId);
    return rolled;
  }

  /** The ids among `ids` that are not businesses. */
  async missing(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const found = await this.businesses.existing(ids);
    return [...new Set(ids.filter((id) => !found.has(id)))];
  }

  /** Names of the businesses `ids` in one query, keyed by id (a business that does not exist is left out). */
  async names(ids: number[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0 && id <= PG_INT_MAX);
    return wanted.length === 0 ? new Map() : this.businesses.names(wanted);
  }

  async name(businessId: number): Promise<string | null> {
    return this.businesses.name(businessId);
  }

  private async issue(m: EntityManager, businessId: number, mode: Mode, type: KeyType): Promise<string> {
    const key = newApiKey(type, mode);
    await this.keyStore.insert(m, {
      business_id: businessId,
      mode,
      key_type: type,
      key_hash: hashApiKey(key),
      prefix: displayPrefix(key),
    });
    return key;
  }
}
