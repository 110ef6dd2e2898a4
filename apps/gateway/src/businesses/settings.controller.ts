import { Controller, Get, Put, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { RedirectOriginsDto } from './business.requests';
import { RedirectOriginsService } from './redirect-origins';
import { ApiResponds } from '@payments/platform';
import * as R from './business.responses';
import { ValidBody } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';
import { ErrorCodes } from '@payments/contracts';

/** Settings of the key's business (secret key only: the guard answers 403 to a public key). */
@Controller('v1/settings')
@UseGuards(ApiKeyGuard)
export class SettingsController {
  constructor(private readonly origins: RedirectOriginsService) {}

  @Get('redirect_origins')
  @ApiResponds(200, 'Origins public-key payments may redirect to', R.RedirectOrigins)
  @ApiErrors(ErrorCodes.NotFound)
  async getRedirectOrigins(@Req() req: ApiRequest): Promise<R.RedirectOrigins> {
    return { result: 'success', redirect_origins: await this.origins.get(rpcContext(req).business_id) };
  }

  @Put('redirect_origins')
  @ApiResponds(200, 'The list, replaced', R.RedirectOriginsSet)
  @ApiErrors(ErrorCodes.NotFound, ErrorCodes.OutcomeUnknown)
  async setRedirectOrigins(
    @Req() req: ApiRequest,
    @ValidBody(RedirectOriginsDto) dto: RedirectOriginsDto,
  ): Promise<R.RedirectOriginsSet> {
    const saved = await this.origins.set(rpcContext(req).business_id, dto.redirect_origins);
    return { result: 'success', message: `${saved.length} redirect origin(s) allowed`, redirect_origins: saved };
  }
}
