import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ErrorCodes, RpcPatterns, type ProviderReturnBody, type ProviderReturnResult } from '@payments/contracts';
import { ApiRespondsRaw } from '@payments/platform';
import { ApiException } from '../http/api-exception';
import type { ApiReply, ApiRequest } from '../http/http-types';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { PROVIDERS } from './provider-notifications.controller';
import { ApiErrors } from '../openapi/route-docs';

const TRANSACTION_ID = /^txn_[A-Za-z0-9]{1,60}$/;

/**
 * Where a customer's browser comes back from a provider's payment page. Nothing the browser brings is trusted: the
 * provider is asked about the payment at once, then the customer goes on (303) to the hosted checkout page.
 */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('v1/provider-returns')
export class ProviderReturnsController {
  constructor(@Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool) {}

  @Get(':provider/:transactionId')
  @ApiRespondsRaw({ status: 303, description: "Back from the provider's payment page: on to the checkout page" })
  @ApiErrors(ErrorCodes.NotFound)
  back(
    @Req() req: ApiRequest,
    @Res() res: ApiReply,
    @Param('provider') provider: string,
    @Param('transactionId') transactionId: string,
  ) {
    return this.forward(req, res, provider, transactionId);
  }

  @Post(':provider/:transactionId')
  @ApiRespondsRaw({
    status: 303,
    description: "Back from the provider's payment page (a posted form): on to the checkout page",
  })
  @ApiErrors(ErrorCodes.NotFound)
  backPosted(
    @Req() req: ApiRequest,
    @Res() res: ApiReply,
    @Param('provider') provider: string,
    @Param('transactionId') transactionId: string,
  ) {
    return this.forward(req, res, provider, transactionId);
  }

  private async forward(req: ApiRequest, res: ApiReply, provider: string, transactionId: string): Promise<void> {
    if (!PROVIDERS.includes(provider) || !TRANSACTION_ID.test(transactionId))
      throw new ApiException(ErrorCodes.NotFound, 'no such payment');
    const found = await this.transactions.call<ProviderReturnBody, ProviderReturnResult>(
      RpcPatterns.ProviderReturn,
      { request_id: req.requestId },
      { provider, transaction_id: transactionId },
    );
    res.redirect(`/checkout?checkout_id=${encodeURIComponent(found.checkout_id)}`, 303);
  }
}
