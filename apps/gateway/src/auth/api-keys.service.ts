import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { KeyType, Mode } from '@payments/contracts';
import { hashApiKey, parseApiKey } from './api-key-format';

export interface Principal {
  business_id: number;
  mode: Mode;
  key_type: KeyType;
}

/**
 * Resolves an API key to (business, mode, key type). The key is looked up by its SHA-256, so the
 * secret itself is never compared byte by byte and never stored.
 */
@Injectable()
export class ApiKeysService {
  constructor(private readonly ds: DataSource) {}

  async authenticate(key: string): Promise<Principal | null> {
    const parsed = parseApiKey(key);
    if (!parsed) return null;
    const rows: { business_id: number; mode: Mode; key_type: KeyType }[] = await this.ds.query(
      `SELECT business_id, mode, key_type FROM api_keys
        WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [hashApiKey(key)],
    );
    return rows[0] ?? null;
  }
}
