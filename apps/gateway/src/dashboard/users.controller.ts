import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ErrorCodes, type DashboardApi } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { ApiException } from '../http/api-exception';
import { serialId } from '../http/path-ids';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ApiRequest } from '../http/http-types';
import { Audit } from './audit';
import { AuditStore } from './audit-store';
import { Allows, AnyMode, DashboardGuard } from './dashboard.guard';
import { presentUser } from './dashboard.presenter';
import { NewUserDto } from './dashboard.requests';
import { ValidBody } from '../http/request-validation';
import { DashboardUsersService } from './dashboard-users.service';
import { DashboardUserStore } from './user-store';
import { SessionStore } from './session-store';
import type { MembershipProblem } from './user-changes';
import { ChangeRoleDto } from './users.requests';

/** The API's answer to a refused change of a user (user-changes.ts). */
function refused(problem: Exclude<MembershipProblem, null>, id: number): ApiException {
  if (problem === 'not_found') return new ApiException(ErrorCodes.NotFound, `no user ${id}`);
  if (problem === 'self')
    return new ApiException(
      ErrorCodes.ValidationError,
      'you cannot change or remove your own account; another owner can',
      [{ field: 'id', message: 'is your own account' }],
    );
  return new ApiException(ErrorCodes.ValidationError, 'the business must keep at least one owner', [
    { field: 'role', message: 'would leave the business without an owner' },
  ]);
}

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
    private readonly sessions: SessionStore,
  ) {}

  @Get('users')
  @Allows('users.read')
  async list(@Req() req: ApiRequest): Promise<DashboardApi.UserList> {
    const users = await this.store.ofBusiness(req.dashboard!.user.business_id);
    return { result: 'success', users: users.map(presentUser) };
  }

  @Post('users')
  @AnyMode()
  @HttpCode(201)
  @Allows('users.invite')
  async invite(@Req() req: ApiRequest, @ValidBody(NewUserDto) body: NewUserDto): Promise<DashboardApi.UserAnswer> {
    const me = req.dashboard!.user;
    const user = await this.users.create(me.business_id, body, me.id);
    await this.audit.record(req, 'user.invite', user.email, { role: user.role });
    return { result: 'success', user: presentUser(user) };
  }

  /** Another user's role; applies from their next request (the guard reads the user every time). */
  @Patch('users/:id')
  @AnyMode()
  @Allows('users.write')
  async changeRole(
    @Req() req: ApiRequest,
    @Param('id') rawId: string,
    @ValidBody(ChangeRoleDto) { role }: ChangeRoleDto,
  ): Promise<DashboardApi.UserAnswer> {
    const me = req.dashboard!.user;
    const id = serialId(rawId, 'user');
    const r = await this.store.changeRole(me.business_id, me.id, id, role);
    if ('problem' in r) throw refused(r.problem, id);
    await this.audit.record(req, 'user.role', r.user.email, { from: r.from, to: role });
    return { result: 'success', user: presentUser(r.user) };
  }

  /** Removes another user and ends every session they have: their next request answers 401. */
  @Delete('users/:id')
  @AnyMode()
  @Allows('users.write')
  async remove(
    @Req() req: ApiRequest,
    @Param('id') rawId: string,
  ): Promise<{ result: 'success'; sessions_ended: number | null }> {
    const me = req.dashboard!.user;
    const id = serialId(rawId, 'user');
    const r = await this.store.remove(me.business_id, me.id, id);
    if ('problem' in r) throw refused(r.problem, id);
    // After the delete: a sign-in racing it may still create a session, which the guard then ends
    // (its user is gone); so does it when Redis cannot be asked now (null: not known how many).
    let ended: number | null = null;
    try {
      ended = await this.sessions.endAllOf(id);
    } catch (err) {
      rootLogger().error(
        { err: (err as Error).message, business_id: me.business_id, user_id: id },
        'removed user’s sessions not ended now; the guard refuses them',
      );
    }
    await this.audit.record(req, 'user.remove', r.user.email, { role: r.user.role, sessions_ended: ended });
    return { result: 'success', sessions_ended: ended };
  }

  @Get('audit')
  @Allows('audit.read')
  async auditLog(@Req() req: ApiRequest, @Query('before') before?: string): Promise<DashboardApi.AuditPage> {
    const cursor = before !== undefined && /^[1-9]\d{0,17}$/.test(before) ? before : undefined;
    const page = await this.audits.page(req.dashboard!.user.business_id, AUDIT_PAGE, cursor);
    return { result: 'success', ...page };
  }
}
