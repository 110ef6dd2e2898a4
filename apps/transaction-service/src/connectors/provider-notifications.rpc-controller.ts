import { MessagePattern, Payload } from '@nestjs/microservices';
import { ErrorCodes, RpcPatterns, type CheckoutRpcRequest, type ProviderNotifyBody, type ProviderNotifyResult } from '@payments/contracts';
import { DomainException, RpcController } from '@payments/platform';
import type { ProviderName } from './connector';
import { LivePayments } from './live-payments';

const PROVIDERS: readonly string[] = ['paynow', 'dpo', 'ozow'] satisfies ProviderName[];

/** Status updates providers post to the gateway's public notification URL (no API key: the provider's signature authenticates them). */
@RpcController()
export class ProviderNotificationsRpcController {
  constructor(private readonly live: LivePayments) {}

  @MessagePattern(RpcPatterns.ProviderNotify)
  onNotify(@Payload() { body }: CheckoutRpcRequest<ProviderNotifyBody>): Promise<ProviderNotifyResult> {
    if (!PROVIDERS.includes(body.provider)) throw new DomainException(ErrorCodes.NotFound, `no provider ${String(body.provider).slice(0, 20)}`);
    return this.live.notify(body.provider as ProviderName, String(body.transaction_id), String(body.body), body.content_type);
  }
}
