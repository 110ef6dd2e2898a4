import { ErrorCodes, isConnectionProvider, type ConnectionProvider, type Mode } from '@payments/contracts';
import { DomainException } from '@payments/platform';

/** The connection use cases' refusals: an unknown provider, or no connection to it in this mode. */
export const notConnected = (provider: string, mode: Mode) =>
  new DomainException(ErrorCodes.NotFound, `no ${provider} connection in ${mode} mode`);

export function knownProvider(provider: unknown): ConnectionProvider {
  if (!isConnectionProvider(provider))
    throw new DomainException(ErrorCodes.NotFound, `no provider ${String(provider)}`);
  return provider;
}
