import type { Static } from '@payments/contracts/schemas';
import { isIn } from '../http/request-rules';
import { required, requestBody } from '../http/request-schema';
import { ROLES } from './roles';

/** PATCH /dashboard/api/users/{id}: the user's new role. */
export const ChangeRoleDto = requestBody('DashboardChangeRoleDto', {
  role: required([isIn(ROLES, `role must be one of ${ROLES.join(', ')}`)]),
});
export type ChangeRoleDto = Static<typeof ChangeRoleDto>;
