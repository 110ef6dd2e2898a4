import { Global, Module } from '@nestjs/common';
import { BusinessesService } from '../businesses/businesses.service';
import { RedirectOriginsService } from '../businesses/redirect-origins';
import { AdminGuard } from './admin.guard';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { RateLimiter } from './rate-limiter';

/** One instance each of the key cache, rate limiter and guards, for every controller of the gateway. */
@Global()
@Module({
  providers: [ApiKeysService, ApiKeyGuard, AdminGuard, RateLimiter, BusinessesService, RedirectOriginsService],
  exports: [ApiKeysService, ApiKeyGuard, AdminGuard, RateLimiter, BusinessesService, RedirectOriginsService],
})
export class AuthModule {}
