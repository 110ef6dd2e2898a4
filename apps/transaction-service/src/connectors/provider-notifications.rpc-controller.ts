import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ErrorCodes,
  RpcPatterns,
  type CheckoutRpcRequest,
  type ProviderNotifyBody,
  type ProviderNotifyResult,
  type ProviderReturnBody,
  type ProviderReturnResult,
} from '@payments/contracts';
import { DomainException, RpcController } from '@payments/platform';
import type { ProviderName } from './connector';
import { ProviderNotifications } from './provider-notifications';

const PROVIDERS: readonly string[] = ['paynow', 'dpo', 'ozow'] satisfies ProviderName[];

function provider(name: unknown): ProviderName {
  if (typeof name !== 'string' || !PROVIDERS.includes(name))
    throw new DomainException(ErrorCodes.NotFound, `no provider ${String(name).slice(0, 20)}`);
  return name as ProviderName;
}

/** What providers and customers coming back from them send to the gateway's public provider URLs (no API key). */
@RpcController()
export class ProviderNotificationsRpcController {
  constructor(private readonly notifications: ProviderNotifications) {}

  /** A status update (the provider's signature authenticates it, or, unsigned, it only makes us ask the provider). */
  @MessagePattern(RpcPatterns.ProviderNotify)
  async onNotify(@Payload() { body }: CheckoutRpcRequest<ProviderNotifyBody>): Promise<ProviderNotifyResult> {
    const result = await this.notifications.notify(
      provider(body.provider),
      typeof body.id === 'string' ? body.id : null,
      String(body.body),
      body.content_type,
    );
    return result.retryLater ? { accepted: result.accepted, retry_later: true } : { accepted: result.accepted };
  }

  /** A customer's browser back from the provider's page. */
  @MessagePattern(RpcPatterns.ProviderReturn)
  async onReturn(@Payload() { body }: CheckoutRpcRequest<ProviderReturnBody>): Promise<ProviderReturnResult> {
    const found = await this.notifications.returned(provider(body.provider), String(body.transaction_id));
    if (!found) throw new DomainException(ErrorCodes.NotFound, 'no such payment');
    return found;
  }
}
