import { Body, Controller, Get, Put, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { RedirectOriginsDto } from './dtos';
import { RedirectOriginsService } from './redirect-origins';
import { ApiResponds } from '@payments/platform';
import * as R from './business.responses';

/** Settings of the key's business (secret key only: the guard answers 403 to a public key). */
@Controller('v1/settings')
@UseGuards(ApiKeyGuard)
export class SettingsController {
  constructor(private readonly origins: RedirectOriginsService) {}

  @Get('redirect_origins')
  @ApiResponds(200, "Origins public-key payments may redirect to", R.RedirectOrigins)
  async getRedirectOrigins(@Req() req: ApiRequest): Promise<R.RedirectOrigins> {
    return { result: 'success', redirect_origins: await this.origins.get(rpcContext(req).business_id) };
  }

  @Put('redirect_origins')
  @ApiResponds(200, "The list, replaced", R.RedirectOriginsSet)
  async setRedirectOrigins(@Req() req: ApiRequest, @Body() dto: RedirectOriginsDto): Promise<R.RedirectOriginsSet> {
    const saved = await this.origins.set(rpcContext(req).business_id, dto.redirect_origins);
    return { result: 'success', message: `${saved.length} redirect origin(s) allowed`, redirect_origins: saved };
  }
}
