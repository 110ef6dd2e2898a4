import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorCodes } from '@payments/contracts';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';
import { header, type ApiRequest } from '../http/http-types';
import { Idempotency } from '../http/idempotency';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Guards the admin API with ADMIN_API_TOKEN, compared in constant time; then claims the Idempotency-Key. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    @Inject(GatewayConfig) config: GatewayConfig,
    private readonly idempotency: Idempotency,
  ) {
    this.expected = digest(config.ADMIN_API_TOKEN);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const match = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new ApiException(ErrorCodes.InvalidApiKey, 'admin endpoints need Authorization: Bearer <ADMIN_API_TOKEN>');
    }
    // Then the request's Idempotency-Key, if it has one (idempotency.ts).
    const claiming = this.idempotency.claim(req, { admin: true });
    return claiming ? claiming.then(() => true) : true;
  }
}
