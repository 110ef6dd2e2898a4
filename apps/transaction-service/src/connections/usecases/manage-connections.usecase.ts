import { Injectable } from '@nestjs/common';
import {
  ErrorCodes,
  isConnectionProvider,
  type ConnectionDeletedResult,
  type ConnectionProvider,
  type ConnectionProviderBody,
  type ConnectionView,
  type ListConnectionsResult,
  type Mode,
  type PutConnectionBody,
  type RpcRequest,
} from '@payments/contracts';
import { credentialProblems, maskedAccount } from '@payments/domain';
import { DomainException } from '@payments/platform';
import { ConnectionStore, toConnectionView } from '../connection-store';

const notConnected = (provider: string, mode: Mode) =>
  new DomainException(ErrorCodes.NotFound, `no ${provider} connection in ${mode} mode`);

function knownProvider(provider: unknown): ConnectionProvider {
  if (!isConnectionProvider(provider))
    throw new DomainException(ErrorCodes.NotFound, `no provider ${String(provider)}`);
  return provider;
}

/**
 * A business's connections to payment providers, in the mode of its key: replace, list, read,
 * remove. What they answer never holds credentials; refusals name fields, never their values.
 */
@Injectable()
export class ManageConnectionsUseCase {
  constructor(private readonly store: ConnectionStore) {}

  async put({ ctx, body }: RpcRequest<PutConnectionBody>): Promise<ConnectionView> {
    const provider = knownProvider(body.provider);
    // The gateway checked the same rules; they are checked again where the credentials are kept.
    const problems = credentialProblems(provider, body.credentials);
    if (problems.length > 0)
      throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    const row = await this.store.put(
      { businessId: ctx.business_id, mode: ctx.mode, provider },
      body.credentials,
      maskedAccount(provider, body.credentials),
    );
    return toConnectionView(row);
  }

  async list({ ctx }: RpcRequest<unknown>): Promise<ListConnectionsResult> {
    return { connections: (await this.store.list(ctx.business_id, ctx.mode)).map(toConnectionView) };
  }

  async get({ ctx, body }: RpcRequest<ConnectionProviderBody>): Promise<ConnectionView> {
    const provider = knownProvider(body.provider);
    const row = await this.store.get(ctx.business_id, ctx.mode, provider);
    if (!row) throw notConnected(provider, ctx.mode);
    return toConnectionView(row);
  }

  async remove({ ctx, body }: RpcRequest<ConnectionProviderBody>): Promise<ConnectionDeletedResult> {
    const provider = knownProvider(body.provider);
    if (!(await this.store.remove(ctx.business_id, ctx.mode, provider))) throw notConnected(provider, ctx.mode);
    return { provider };
  }
}
