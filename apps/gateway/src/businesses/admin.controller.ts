import { Controller, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { serialId } from '../http/path-ids';
import { BusinessesService } from './businesses.service';
import { CreateBusinessDto, RedirectOriginsDto, RollKeyDto } from './business.requests';
import { RedirectOriginsService } from './redirect-origins';
import { ApiResponds } from '@payments/platform';
import * as R from './business.responses';
import { ValidBody } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';
import { ErrorCodes } from '@payments/contracts';

@Controller('admin/v1')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly businesses: BusinessesService,
    private readonly origins: RedirectOriginsService,
  ) {}

  @Post('businesses')
  @HttpCode(201)
  @ApiResponds(201, 'The business and its four API keys, shown only this once', R.BusinessCreated)
  @ApiErrors(ErrorCodes.OutcomeUnknown)
  async createBusiness(@ValidBody(CreateBusinessDto) dto: CreateBusinessDto): Promise<R.BusinessCreated> {
    const created = await this.businesses.create(dto.name);
    return { result: 'success', ...created };
  }

  @Post('businesses/:id/keys/roll')
  @HttpCode(201)
  @ApiResponds(201, 'The new key; the previous one stops working at previous_key_expires_at', R.KeyRolled)
  @ApiErrors(ErrorCodes.NotFound, ErrorCodes.OutcomeUnknown)
  async rollKey(@Param('id') id: string, @ValidBody(RollKeyDto) dto: RollKeyDto): Promise<R.KeyRolled> {
    const rolled = await this.businesses.roll(serialId(id, 'business'), dto.mode, dto.type, dto.grace_seconds ?? 0);
    return {
      result: 'success',
      mode: dto.mode,
      type: dto.type,
      api_key: rolled.key,
      previous_key_expires_at: rolled.previous_key_expires_at,
    };
  }

  @Get('businesses/:id/redirect_origins')
  @ApiResponds(200, 'Origins public-key payments may redirect to', R.RedirectOrigins)
  @ApiErrors(ErrorCodes.NotFound)
  async getRedirectOrigins(@Param('id') id: string): Promise<R.RedirectOrigins> {
    return { result: 'success', redirect_origins: await this.origins.get(serialId(id, 'business')) };
  }

  @Put('businesses/:id/redirect_origins')
  @ApiResponds(200, 'The list, replaced', R.RedirectOriginsSet)
  @ApiErrors(ErrorCodes.NotFound, ErrorCodes.OutcomeUnknown)
  async setRedirectOrigins(
    @Param('id') id: string,
    @ValidBody(RedirectOriginsDto) dto: RedirectOriginsDto,
  ): Promise<R.RedirectOriginsSet> {
    const saved = await this.origins.set(serialId(id, 'business'), dto.redirect_origins);
    return { result: 'success', message: `${saved.length} redirect origin(s) allowed`, redirect_origins: saved };
  }
}
