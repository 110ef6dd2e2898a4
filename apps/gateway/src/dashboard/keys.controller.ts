import { Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCodes, type DashboardApi } from '@payments/contracts';
import { ApiKeyStore } from '../auth/api-key-store';
import { BusinessesService } from '../businesses/businesses.service';
import type { ApiRequest } from '../http/http-types';
import { Audit } from './audit';
import { Allows, AnswersSecret, DashboardGuard } from './dashboard.guard';
import { RollKeyDto } from './dashboard.requests';
import { ApiException } from '../http/api-exception';
import { ValidBody } from '../http/request-validation';

export type KeyItem = DashboardApi.KeyItem;

/**
 * The session's mode's API keys, masked (only their display prefix is stored), and rolling one:
 * the new key is in that one answer and nowhere else, as with the admin API's roll.
 */
@ApiExcludeController()
@Controller('dashboard/api/keys')
@UseGuards(DashboardGuard)
export class KeysController {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly businesses: BusinessesService,
    private readonly audit: Audit,
  ) {}

  @Get()
  @Allows('keys.read')
  async list(@Req() req: ApiRequest): Promise<DashboardApi.KeyList> {
    const { user, session } = req.dashboard!;
    const rows = await this.keys.working(user.business_id, session.mode);
    const keys = rows.map((r): KeyItem => ({
      type: r.key_type,
      mode: session.mode,
      masked: `${r.prefix}…`,
      date_created: r.created_at.toISOString(),
      expires_at: r.expires_at?.toISOString() ?? null,
    }));
    return { result: 'success', keys };
  }

  @Post('roll')
  @HttpCode(201)
  @Allows('keys.roll')
  @AnswersSecret()
  async roll(@Req() req: ApiRequest, @ValidBody(RollKeyDto) body: RollKeyDto): Promise<DashboardApi.KeyRolled> {
    const { user, session } = req.dashboard!;
    // The key the page showed: another tab may have switched the session's mode since.
    if (body.mode !== session.mode) {
      throw new ApiException(
        ErrorCodes.ModeMismatch,
        `the session is in ${session.mode} mode now; reload the page to roll a ${session.mode} key`,
      );
    }
    const grace = body.grace_seconds ?? 0;
    const rolled = await this.businesses.roll(user.business_id, session.mode, body.type, grace);
    await this.audit.record(req, 'key.roll', `${body.type} key`, { grace_seconds: grace });
    return {
      result: 'success',
      type: body.type,
      mode: session.mode,
      api_key: rolled.key,
      previous_key_expires_at: rolled.previous_key_expires_at,
    };
  }
}
