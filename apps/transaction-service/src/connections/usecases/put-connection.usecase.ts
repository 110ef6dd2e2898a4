import { Injectable } from '@nestjs/common';
import { ErrorCodes, type ConnectionView, type PutConnectionBody, type RpcRequest } from '@payments/contracts';
import { credentialProblems, maskedAccount } from '@payments/domain';
import { DomainException } from '@payments/platform';
import { knownProvider } from '../connection-refusals';
import { ConnectionStore, toConnectionView } from '../connection-store';

/**
 * Replaces the business's connection to a payment provider, in the mode of its key. What it
 * answers never holds credentials; refusals name fields, never their values.
 */
@Injectable()
export class PutConnectionUseCase {
  constructor(private readonly store: ConnectionStore) {}

  async execute({ ctx, body }: RpcRequest<PutConnectionBody>): Promise<ConnectionView> {
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
}
