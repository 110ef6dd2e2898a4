import { Controller, Get, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ApiRequest } from '../http/http-types';
import { Audit } from './audit';
import { AuditStore, type AuditEntry } from './audit-store';
import { Allows, DashboardGuard } from './dashboard.guard';
import { presentUser, type UserView } from './dashboard.presenter';
import { NewUserDto } from './dashboard.requests';
import { ValidBody } from '../http/request-validation';
import { DashboardUsersService } from './dashboard-users.service';
import { DashboardUserStore } from './user-store';

const AUDIT_PAGE = 50;

/** The business's dashboard users (an owner invites more) and the audit log (owners only). */
@ApiExcludeController()
@Controller('dashboard/api')
@UseGuards(DashboardGuard)
export class UsersController {
  constructor(
    private readonly store: DashboardUserStore,
    private readonly users: DashboardUsersService,
    private readonly audits: AuditStore,
    private readonly audit: Audit,
  ) {}

  @Get('users')
  @Allows('users.read')
  async list(@Req() req: ApiRequest): Promise<{ result: 'success'; users: UserView[] }> {
    const users = await this.store.ofBusiness(req.dashboard!.user.business_id);
    return { result: 'success', users: users.map(presentUser) };
  }

  @Post('users')
  @HttpCode(201)
  @Allows('users.invite')
  async invite(@Req() req: ApiRequest, @ValidBody(NewUserDto) body: NewUserDto): Promise<{ result: 'success'; user: UserView }> {
    const me = req.dashboard!.user;
    const user = await this.users.create(me.business_id, body, me.id);
    await this.audit.record(req, 'user.invite', user.email, { role: user.role });
    return { result: 'success', user: presentUser(user) };
  }

  @Get('audit')
  @Allows('audit.read')
  async auditLog(@Req() req: ApiRequest, @Query('before') before?: string): Promise<{ result: 'success'; entries: AuditEntry[]; has_more: boolean }> {
    const cursor = before !== undefined && /^[1-9]\d{0,17}$/.test(before) ? before : undefined;
    const page = await this.audits.page(req.dashboard!.user.business_id, AUDIT_PAGE, cursor);
    return { result: 'success', ...page };
  }
}
