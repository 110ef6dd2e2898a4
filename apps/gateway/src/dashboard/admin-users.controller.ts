import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ApiResponds } from '@payments/platform';
import { AdminGuard } from '../auth/admin.guard';
import { serialId } from '../http/path-ids';
import { DashboardUsersService } from './dashboard-users.service';
import { DashboardUserCreated, documented } from './dashboard.responses';
import { checkNewUser, NewUserBody } from './dashboard.schemas';
import { presentUser } from './dashboard.presenter';

/** Operators create a business's first dashboard users (its owner); owners invite the rest from the dashboard. */
@Controller('admin/v1/businesses')
@UseGuards(AdminGuard)
export class AdminDashboardUsersController {
  constructor(private readonly users: DashboardUsersService) {}

  @Post(':id/users')
  @HttpCode(201)
  @ApiBody({ schema: documented(NewUserBody) })
  @ApiResponds(201, 'A dashboard user of the business (409 email_taken when the e-mail already has an account)', DashboardUserCreated)
  async create(@Param('id') id: string, @Body() raw: unknown): Promise<DashboardUserCreated> {
    const businessId = serialId(id, 'business');
    const user = await this.users.create(businessId, checkNewUser(raw));
    return { result: 'success', user: presentUser(user) };
  }
}
