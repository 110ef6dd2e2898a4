import { Injectable } from '@nestjs/common';
import { ErrorCodes } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import { hashPassword } from './passwords';
import type { Role } from './roles';
import { DashboardUserStore, type DashboardUser } from './user-store';

/** Creates dashboard users, for the admin API and for an owner inviting people to their business. */
@Injectable()
export class DashboardUsersService {
  constructor(private readonly store: DashboardUserStore) {}

  async create(
    businessId: number,
    input: { email: string; password: string; role: Role },
    invitedBy: number | null = null,
  ): Promise<DashboardUser> {
    const hash = await hashPassword(input.password);
    const user = await this.store.insert(businessId, input.email.toLowerCase(), hash, input.role, invitedBy);
    if (user === undefined) throw new ApiException(ErrorCodes.NotFound, `no business ${businessId}`);
    if (user === null)
      throw new ApiException(ErrorCodes.EmailTaken, 'that e-mail already has a dashboard account', [
        { field: 'email', message: 'already has a dashboard account' },
      ]);
    return user;
  }
}
