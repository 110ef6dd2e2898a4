import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Mode } from '@payments/contracts';
import { ROOT_LOGGER } from '@payments/platform';
import { ConnectionStore } from '../connections/connection-store';
import { CredentialsUnreadable } from '../connections/credentials-cipher';
import type { ProviderName } from './connector';

/** Test payments ask on every initialize: their answer is kept this long per process. */
const CACHE_MS = 5_000;
const CACHE_MAX = 10_000;

/** The businesses' provider credentials as the connectors use them (ConnectionStore, decrypted). */
@Injectable()
export class ProviderCredentials {
  private readonly cache = new Map<string, { at: number; credentials: Record<string, string> | null }>();

  constructor(
    private readonly connections: ConnectionStore,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * For routing a new payment. Live mode reads them every time (a replaced or deleted connection
   * applies at once); test mode keeps the answer, a missing connection included, CACHE_MS per
   * process, since every test initialize asks.
   */
  async cached(businessId: number, mode: Mode, provider: ProviderName): Promise<Record<string, string> | null> {
    if (mode === 'live') return this.read(businessId, mode, provider);
    const key = `${businessId}:${mode}:${provider}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.credentials;
    const credentials = await this.read(businessId, mode, provider);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(key, { at: Date.now(), credentials });
    return credentials;
  }

  /** Whether the business has connected any provider in this mode (a live payment without a method needs one). */
  async anyConnected(businessId: number, mode: Mode): Promise<boolean> {
    return (await this.connections.list(businessId, mode)).length > 0;
  }

  /** The credentials now; null when not connected or when stored ones cannot be opened (key gone, or altered). */
  async read(businessId: number, mode: Mode, provider: ProviderName): Promise<Record<string, string> | null> {
    try {
      return await this.connections.credentialsFor(businessId, mode, provider);
    } catch (err) {
      if (!(err instanceof CredentialsUnreadable)) throw err;
      this.logger.error(
        { business_id: businessId, mode, provider },
        'stored provider credentials cannot be opened (PROVIDER_CREDENTIALS_KEY changed?); ' +
          'the connection counts as absent',
      );
      return null;
    }
  }
}
