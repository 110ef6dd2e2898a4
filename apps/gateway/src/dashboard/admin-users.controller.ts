import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiResponds } from '@payments/platform';
import { AdminGuard } from '../auth/admin.guard';
import { serialId } from '../http/path-ids';
import { DashboardUsersService } from './dashboard-users.service';
import { DashboardUserCreated } from './dashboard.responses';
import { NewUserDto } from './dashboard.requests';
import { ValidBody } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';
import { ErrorCodes } from '@payments/contracts';
import { presentUser } from './dashboard.presenter';

/** Operators create a business's first dashboard users (its owner); owners invite the rest from the dashboard. */
@Controller('admin/v1/businesses')
@UseGuards(AdminGuard)
export class AdminDashboardUsersController {
  constructor(private readonly users: DashboardUsersService) {}

  @Post(':id/users')
  @HttpCode(201)
  @ApiErrors(ErrorCodes.NotFound, ErrorCodes.EmailTaken)
  @ApiResponds(
    201,
    'A dashboard user of the business (409 email_taken when the e-mail already has an account)',
    DashboardUserCreated,
  )
  async create(@Param('id') id: string, @ValidBody(NewUserDto) body: NewUserDto): Promise<DashboardUserCreated> {
    const businessId = serialId(id, 'business');
    const user = await this.users.create(businessId, body);
    return { result: 'success', user: presentUser(user) };
  }
}
