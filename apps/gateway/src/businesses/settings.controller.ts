import { Body, Controller, Get, Put, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { RedirectOriginsDto } from './dtos';
import { RedirectOriginsService } from './redirect-origins';

/** Settings of the key's business (secret key only: the guard answers 403 to a public key). */
@Controller('v1/settings')
@UseGuards(ApiKeyGuard)
export class SettingsController {
  constructor(private readonly origins: RedirectOriginsService) {}

  @Get('redirect_origins')
  async getRedirectOrigins(@Req() req: ApiRequest) {
    return { result: 'success', redirect_origins: await this.origins.get(rpcContext(req).business_id) };
  }

  @Put('redirect_origins')
  async setRedirectOrigins(@Req() req: ApiRequest, @Body() dto: RedirectOriginsDto) {
    const saved = await this.origins.set(rpcContext(req).business_id, dto.redirect_origins);
    return { result: 'success', message: `${saved.length} redirect origin(s) allowed`, redirect_origins: saved };
  }
}
