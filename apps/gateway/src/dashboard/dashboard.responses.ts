import { Closed, Int, Str, StringEnum, type Static } from '@payments/contracts/schemas';
import { Ok } from '../http/responses';
import { ROLES } from './roles';

/** The admin API's answer to creating a dashboard user (the dashboard's own API is not in the OpenAPI document). */
export const DashboardUserCreated = Ok({
  user: Closed({
    id: Int(),
    email: Str('Stored lower-cased'),
    role: StringEnum(ROLES),
    business_id: Int(),
    business_name: Str(),
    date_created: Str(),
  }),
});
export type DashboardUserCreated = Static<typeof DashboardUserCreated>;
