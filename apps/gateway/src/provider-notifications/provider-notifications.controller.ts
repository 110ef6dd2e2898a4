import { Body, Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ErrorCodes, RpcPatterns, type ProviderNotifyBody, type ProviderNotifyResult } from '@payments/contracts';
import { ApiRespondsRaw } from '@payments/platform';
import { ApiException } from '../http/api-exception';
import { header, type ApiReply, type ApiRequest } from '../http/http-types';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { ApiErrors } from '../openapi/route-docs';

export const PROVIDERS = ['paynow', 'dpo', 'ozow'];
/** A transaction's public id, or a refund's (a provider with a refund API posts the refund's updates). */
const NOTIFIED_ID = /^(txn|rfd)_[A-Za-z0-9]{1,60}$/;

/**
 * Where payment providers post status updates. No API key: transaction-service checks the provider's signature with the
 * business's own credentials, and an unsigned one (DPO's push) only makes us ask the provider. 200 when taken
 * (providers resend), 400 when refused (forged or not matching), 503 when it could not be applied now.
 */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('v1/provider-notifications')
export class ProviderNotificationsController {
  constructor(@Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool) {}

  @Post(':provider/:id')
  @HttpCode(200)
  @ApiRespondsRaw({
    status: 200,
    description: "A payment provider's status update of one payment or refund was taken (body `OK`)",
    contentType: 'text/plain',
  })
  @ApiErrors(ErrorCodes.NotFound, ErrorCodes.ProviderUnavailable)
  async notify(
    @Req() req: ApiRequest,
    @Res() res: ApiReply,
    @Param('provider') provider: string,
    @Param('id') id: string,
    @Body() body: unknown,
  ) {
    if (!NOTIFIED_ID.test(id)) throw new ApiException(ErrorCodes.NotFound, 'no such payment');
    await this.forward(req, res, provider, id, body);
  }

  @Post(':provider')
  @HttpCode(200)
  @ApiRespondsRaw({
    status: 200,
    description: "A payment provider's status update posted to its account-wide URL (DPO's push) was taken (body `OK`)",
    contentType: 'text/plain',
  })
  @ApiErrors(ErrorCodes.NotFound, ErrorCodes.ProviderUnavailable)
  async notifyAccount(
    @Req() req: ApiRequest,
    @Res() res: ApiReply,
    @Param('provider') provider: string,
    @Body() body: unknown,
  ) {
    await this.forward(req, res, provider, undefined, body);
  }

  private async forward(
    req: ApiRequest,
    res: ApiReply,
    provider: string,
    id: string | undefined,
    body: unknown,
  ): Promise<void> {
    if (!PROVIDERS.includes(provider))
      throw new ApiException(ErrorCodes.NotFound, `no provider ${provider.slice(0, 20)}`);
    const text = typeof body === 'string' ? body : formText(body);
    if (text === undefined)
      throw new ApiException(
        ErrorCodes.ValidationError,
        'a status update is a form of single values or an XML document',
        [{ field: 'body', message: 'must be a form of single values or XML' }],
      );
    const result = await this.transactions.call<ProviderNotifyBody, ProviderNotifyResult>(
      RpcPatterns.ProviderNotify,
      { request_id: req.requestId },
      { provider, ...(id ? { id } : {}), body: text, content_type: header(req, 'content-type') },
    );
    if (result.retry_later)
      throw new ApiException(
        ErrorCodes.ProviderUnavailable,
        'the status update could not be checked with the provider now; send it again',
      );
    if (!result.accepted)
      throw new ApiException(ErrorCodes.ValidationError, 'status update refused', [
        { field: 'body', message: 'is not a valid status update of this payment' },
      ]);
    res.code(200).type('text/plain; charset=utf-8').send('OK');
  }
}

/**
 * The form again as text, in the order it came (the provider's hash covers the values in that
 * order; the parser kept it). Undefined for anything but flat single values.
 */
function formText(form: unknown): string | undefined {
  if (form === undefined || form === null) return '';
  if (typeof form !== 'object' || Array.isArray(form)) return undefined;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(form as Record<string, unknown>)) {
    if (typeof v !== 'string') return undefined;
    params.append(k, v);
  }
  return params.toString();
}
