import { Body, Controller, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { serialId } from '../http/path-ids';
import { BusinessesService } from './businesses.service';
import { CreateBusinessDto, RedirectOriginsDto, RollKeyDto } from './dtos';
import { RedirectOriginsService } from './redirect-origins';

@Controller('admin/v1')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    private readonly businesses: BusinessesService,
    private readonly origins: RedirectOriginsService,
  ) {}

  @Post('businesses')
  @HttpCode(201)
  async createBusiness(@Body() dto: CreateBusinessDto) {
    const created = await this.businesses.create(dto.name);
    return { result: 'success', ...created };
  }

  @Post('businesses/:id/keys/roll')
  @HttpCode(201)
  async rollKey(@Param('id') id: string, @Body() dto: RollKeyDto) {
    const rolled = await this.businesses.roll(serialId(id, 'business'), dto.mode, dto.type, dto.grace_seconds ?? 0);
    return { result: 'success', mode: dto.mode, type: dto.type, api_key: rolled.key, previous_key_expires_at: rolled.previous_key_expires_at };
  }

  @Get('businesses/:id/redirect_origins')
  async getRedirectOrigins(@Param('id') id: string) {
    return { result: 'success', redirect_origins: await this.origins.get(serialId(id, 'business')) };
  }

  @Put('businesses/:id/redirect_origins')
  async setRedirectOrigins(@Param('id') id: string, @Body() dto: RedirectOriginsDto) {
    const saved = await this.origins.set(serialId(id, 'business'), dto.redirect_origins);
    return { result: 'success', message: `${saved.length} redirect origin(s) allowed`, redirect_origins: saved };
  }
}
