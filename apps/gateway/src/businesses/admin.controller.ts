import { Body, Controller, HttpCode, Param, ParseIntPipe, Post, UseGuards } from '@nestjs/common';
import { ErrorCodes } from '@payments/contracts';
import { AdminGuard } from '../auth/admin.guard';
import { ApiException } from '../http/api-exception';
import { BusinessesService } from './businesses.service';
import { CreateBusinessDto, RollKeyDto } from './dtos';

const idPipe = new ParseIntPipe({ exceptionFactory: () => new ApiException(ErrorCodes.NotFound, 'no such business') });

@Controller('admin/v1')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(private readonly businesses: BusinessesService) {}

  @Post('businesses')
  @HttpCode(201)
  async createBusiness(@Body() dto: CreateBusinessDto) {
    const created = await this.businesses.create(dto.name);
    return { result: 'success', ...created };
  }

  @Post('businesses/:id/keys/roll')
  @HttpCode(201)
  async rollKey(@Param('id', idPipe) id: number, @Body() dto: RollKeyDto) {
    const rolled = await this.businesses.roll(id, dto.mode, dto.type, dto.grace_seconds ?? 0);
    return { result: 'success', mode: dto.mode, type: dto.type, api_key: rolled.key, previous_key_expires_at: rolled.previous_key_expires_at };
  }
}
