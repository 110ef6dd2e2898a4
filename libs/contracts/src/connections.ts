import type { Mode } from './common';

/**
 * Provider connections (a business's own account with a provider, one per provider and mode): `connections.*` RPC
 * bodies and results. Credentials travel only in the `connections.put` request; no result, error or event carries them.
 */
export const CONNECTION_PROVIDERS = ['paynow', 'dpo', 'ozow'] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

export function isConnectionProvider(value: unknown): value is ConnectionProvider {
  return typeof value === 'string' && (CONNECTION_PROVIDERS as readonly string[]).includes(value);
}

/** A connection as the services show it: never its credentials. */
export interface ConnectionView {
  provider: ConnectionProvider;
  mode: Mode;
  /** Enough of the account's id to recognise it, e.g. `int_…1201`. */
  account: string;
  /** The payment_method_codes the connection serves. */
  methods: string[];
  date_created: string;
  date_updated: string;
}

export interface ConnectionProviderBody {
  provider: ConnectionProvider;
}

/** connections.put: replaces the business's credentials for this provider in the context's mode. */
export interface PutConnectionBody extends ConnectionProviderBody {
  credentials: Record<string, string>;
}

export interface ListConnectionsResult {
  connections: ConnectionView[];
}

export interface ConnectionDeletedResult {
  provider: ConnectionProvider;
}
