import { Body, Controller, Get, Header, Inject, Post, Query, Req, Res } from '@nestjs/common';
import {
  ErrorCodes,
  RpcPatterns,
  type CheckoutGetBody,
  type CheckoutPayBody,
  type CheckoutPayResult,
  type CheckoutView,
} from '@payments/contracts';
import { ApiRespondsRaw, randomBase62 } from '@payments/platform';
import { BusinessesService } from '../businesses/businesses.service';
import { ApiException } from '../http/api-exception';
import type { ApiReply, ApiRequest } from '../http/http-types';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import {
  CHECKOUT_CSS,
  renderAtProvider,
  renderForm,
  renderInactive,
  renderNotFound,
  renderProcessing,
  renderResult,
  renderUnavailable,
  type CheckoutPageModel,
} from './checkout.view';
import { ApiErrors } from '../openapi/route-docs';

const CHECKOUT_ID = /^(chk|plink)_[0-9A-Za-z]{10,40}$/;

function origin(url: string | null): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/** Where the customer goes when the payment ends: the merchant's URL with the reference and status. */
function redirectTarget(v: CheckoutView): string | null {
  const base = v.status === 'success' ? v.success_url : v.status === 'failed' ? v.failure_url : null;
  if (!base) return null;
  const url = new URL(base);
  if (v.transaction_reference) url.searchParams.set('reference', v.transaction_reference);
  url.searchParams.set('status', v.status);
  return url.toString();
}

/**
 * The hosted checkout page: no API key, the checkout id is the capability. Server-rendered forms
 * without scripts; a payment awaiting approval refreshes itself.
 */
@Controller('checkout')
export class CheckoutController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    private readonly businesses: BusinessesService,
  ) {}

  @Get('checkout.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiRespondsRaw({ status: 200, description: 'Stylesheet of the hosted checkout page', contentType: 'text/css' })
  @ApiErrors()
  css(): string {
    return CHECKOUT_CSS;
  }

  @Get()
  @ApiRespondsRaw({
    status: 200,
    description: 'The hosted checkout page (HTML); 303 to the merchant once the payment ended',
    contentType: 'text/html',
  })
  @ApiErrors(ErrorCodes.OutcomeUnknown)
  async show(@Req() req: ApiRequest, @Res() res: ApiReply, @Query('checkout_id') checkoutId: unknown) {
    const view = await this.load(req, res, checkoutId);
    if (!view) return;
    const target = view.kind === 'transaction' ? redirectTarget(view) : null;
    if (target) return res.redirect(target, 303);
    if (view.status === 'inactive')
      return this.send(res, 410, view, renderInactive({ view, merchant: await this.merchantName(view) }));
    const model = {
      view,
      merchant: await this.merchantName(view),
      attemptToken: view.kind === 'link' ? randomBase62(32) : undefined,
    };
    const open = view.status === 'pending' || view.status === 'processing';
    const page =
      open && view.provider
        ? renderAtProvider(model)
        : view.status === 'processing'
          ? renderProcessing(model)
          : view.status === 'success' || view.status === 'failed'
            ? renderResult(model)
            : renderForm(model);
    this.send(res, 200, view, page);
  }

  @Post('pay')
  @ApiRespondsRaw({ status: 303, description: 'Redirect to the checkout page of the transaction' })
  @ApiErrors(ErrorCodes.OutcomeUnknown)
  async pay(@Req() req: ApiRequest, @Res() res: ApiReply, @Body() form: Record<string, unknown>) {
    const str = (k: string) => (typeof form?.[k] === 'string' ? (form[k] as string).slice(0, 300) : undefined);
    const view = await this.load(req, res, str('checkout_id'));
    if (!view) return;
    const action = str('action') === 'decline' ? 'decline' : 'pay';
    try {
      const result = await this.transactions.call<CheckoutPayBody, CheckoutPayResult>(
        RpcPatterns.CheckoutPay,
        { request_id: req.requestId },
        {
          checkout_id: view.checkout_id,
          action,
          payment_method_code: str('payment_method_code'),
          mobile_money_number: str('mobile_money_number'),
          email: str('email'),
          attempt_token: str('attempt_token'),
        },
      );
      res.redirect(`/checkout?checkout_id=${encodeURIComponent(result.checkout_id)}`, 303);
    } catch (err) {
      if (err instanceof ApiException && err.code === ErrorCodes.LinkInactive) {
        return this.send(res, 410, view, renderInactive({ view, merchant: await this.merchantName(view) }));
      }
      if (err instanceof ApiException && err.status < 500) {
        const model: CheckoutPageModel = {
          view,
          merchant: await this.merchantName(view),
          error: err.errors?.[0] ? `${err.errors[0].field.replace(/_/g, ' ')} ${err.errors[0].message}` : err.message,
          form: {
            email: str('email'),
            payment_method_code: str('payment_method_code'),
            mobile_money_number: str('mobile_money_number'),
          },
          attemptToken: str('attempt_token'),
        };
        return this.send(res, err.status, view, renderForm(model));
      }
      this.send(res, 503, view, renderUnavailable(req.requestId));
    }
  }

  private async load(req: ApiRequest, res: ApiReply, checkoutId: unknown): Promise<CheckoutView | null> {
    if (typeof checkoutId !== 'string' || !CHECKOUT_ID.test(checkoutId)) {
      this.send(res, 404, null, renderNotFound());
      return null;
    }
    try {
      return await this.transactions.call<CheckoutGetBody, CheckoutView>(
        RpcPatterns.CheckoutGet,
        { request_id: req.requestId },
        { checkout_id: checkoutId },
      );
    } catch (err) {
      if (err instanceof ApiException && err.status === 404) this.send(res, 404, null, renderNotFound());
      else this.send(res, 503, null, renderUnavailable(req.requestId));
      return null;
    }
  }

  private async merchantName(v: CheckoutView): Promise<string> {
    return (await this.businesses.name(v.business_id)) ?? 'the merchant';
  }

  /** HTML with a CSP that allows only our stylesheet, and form posts to us and the merchant's return URLs. */
  private send(res: ApiReply, status: number, view: CheckoutView | null, html: string): void {
    const formTargets = ["'self'", origin(view?.success_url ?? null), origin(view?.failure_url ?? null)].filter(
      Boolean,
    );
    res
      .header(
        'Content-Security-Policy',
        `default-src 'none'; style-src 'self'; img-src 'self' data:; ` +
          `form-action ${[...new Set(formTargets)].join(' ')}; frame-ancestors 'none'; base-uri 'none'`,
      )
      .header('Cache-Control', 'no-store')
      .code(status)
      .type('text/html; charset=utf-8')
      .send(html);
  }
}
