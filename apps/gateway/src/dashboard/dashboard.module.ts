import { Module } from '@nestjs/common';
import { AdminDashboardUsersController } from './admin-users.controller';
import { Audit } from './audit';
import { AuditStore } from './audit-store';
import { DashboardGuard } from './dashboard.guard';
import { DashboardUsersService } from './dashboard-users.service';
import { KeysController } from './keys.controller';
import { DashboardLinksController } from './links.controller';
import { DashboardSplitsController } from './splits.controller';
import { DashboardSplitConfigsController } from './split-configs.controller';
import { PartnerNames } from './business-names';
import { LoginLimiter } from './login-limiter';
import { OverviewController } from './overview.controller';
import { DashboardPagesController } from './pages.controller';
import { PaymentsController } from './payments.controller';
import { SessionController } from './session.controller';
import { SessionStore } from './session-store';
import { DashboardUserStore } from './user-store';
import { UsersController } from './users.controller';
import { WebhooksController } from './webhooks.controller';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { DashboardEventsController } from './events.controller';
import { DashboardSettingsController } from './settings.controller';

/**
 * The merchant dashboard's API under /dashboard/api (docs/dashboard.md): sessions, roles, the
 * audit log, and pages' data through the same service RPCs as /v1; plus the admin route that
 * creates a business's dashboard users.
 */
@Module({
  controllers: [
    SessionController,
    OverviewController,
    PaymentsController,
    UsersController,
    WebhooksController,
    KeysController,
    AdminDashboardUsersController,
    DashboardLinksController,
    DashboardSplitsController,
    DashboardSplitConfigsController,
    WebhookEndpointsController,
    DashboardEventsController,
    DashboardSettingsController,
    DashboardPagesController,
  ],
  providers: [
    DashboardUserStore,
    AuditStore,
    Audit,
    SessionStore,
    LoginLimiter,
    DashboardGuard,
    DashboardUsersService,
    PartnerNames,
  ],
})
export class DashboardModule {}
