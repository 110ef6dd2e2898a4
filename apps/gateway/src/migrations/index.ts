import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { RedirectOrigins1764000000000 } from './1764000000000-redirect-origins';
import { DashboardUsers1765200000000 } from './1765200000000-dashboard-users';
import { DashboardUserRemoval1765400000000 } from './1765400000000-dashboard-user-removal';

export const migrations = [
  InitialSchema1763800000000,
  RedirectOrigins1764000000000,
  DashboardUsers1765200000000,
  DashboardUserRemoval1765400000000,
];
