import { Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  WebhookAdminRpcPatterns,
  type AdminRecoverDeliveriesBody,
  type AdminRecoverDeliveriesResult,
} from '@payments/contracts';
import { AdminGuard } from '../auth/admin.guard';
import { ADMIN_WEBHOOK_DISPATCHER, RpcClientPool } from '../rpc/rpc-client-pool';
import { AdminRecoverDto } from './callback.requests';
import { ApiResponds } from '@payments/platform';
import * as R from './callback.responses';
import { ValidBody } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';

/** Operators' webhook controls (ADMIN_API_TOKEN): what `ops webhooks recover` calls. */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('admin/v1/webhooks')
@UseGuards(AdminGuard)
export class WebhooksAdminController {
  constructor(@Inject(ADMIN_WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool) {}

  /**
   * Queues again (dry_run: only lists) a business's failed and skipped deliveries since a time,
   * for its active callbacks; one page per call, `next` is the cursor of the following page.
   */
  @Post('recover')
  @HttpCode(200)
  @ApiResponds(
    200,
    'One page of the failed and skipped deliveries queued again (or, dry run, that would be)',
    R.AdminDeliveriesRecovered,
  )
  @ApiErrors()
  async recover(
    @Req() req: ApiRequest,
    @ValidBody(AdminRecoverDto) dto: AdminRecoverDto,
  ): Promise<R.AdminDeliveriesRecovered> {
    const r = await this.hooks.call<AdminRecoverDeliveriesBody, AdminRecoverDeliveriesResult>(
      WebhookAdminRpcPatterns.DeliveriesRecover,
      { request_id: req.requestId },
      {
        business_id: dto.business_id,
        mode: dto.mode,
        since: dto.since,
        dry_run: dto.dry_run ?? false,
        after: dto.after ?? null,
        limit: dto.limit ?? 500,
      },
    );
    return { result: 'success', dry_run: dto.dry_run ?? false, ...r };
  }
}
