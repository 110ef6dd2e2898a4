import { Global, Module } from '@nestjs/common';
import { BusinessStore } from '../businesses/business-store';
import { BusinessesService } from '../businesses/businesses.service';
import { RedirectOriginsService } from '../businesses/redirect-origins';
import { AdminGuard } from './admin.guard';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyStore } from './api-key-store';
import { ApiKeysService } from './api-keys.service';
import { Idempotency } from '../http/idempotency';
import { RateLimiter } from './rate-limiter';

/** One instance each of the key cache, rate limiter and guards, for every controller of the gateway. */
@Global()
@Module({
  providers: [
    Idempotency,
    ApiKeyStore,
    BusinessStore,
    ApiKeysService,
    ApiKeyGuard,
    AdminGuard,
    RateLimiter,
    BusinessesService,
    RedirectOriginsService,
  ],
  exports: [
    Idempotency,
    ApiKeyStore,
    ApiKeysService,
    ApiKeyGuard,
    AdminGuard,
    RateLimiter,
    BusinessesService,
    RedirectOriginsService,
  ],
})
export class AuthModule {}
