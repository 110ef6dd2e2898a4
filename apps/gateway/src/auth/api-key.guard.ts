import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCodes, type RpcContext } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import { header as requestHeader, type ApiReply, type ApiRequest } from '../http/http-types';
import { Idempotency } from '../http/idempotency';
import { ApiKeysService } from './api-keys.service';
import { RateLimiter } from './rate-limiter';

const PUBLIC_KEY_ALLOWED = 'public-key-allowed';
/** Marks the few routes a public key may call (only POST /v1/transactions). */
export const PublicKeyAllowed = () => SetMetadata(PUBLIC_KEY_ALLOWED, true);

/**
 * Authenticates `Authorization: Bearer <api key>` on every /v1 route (secret key unless marked),
 * takes a rate-limit token, then claims the request's Idempotency-Key if it has one.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly idempotency: Idempotency,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const header = requestHeader(req, 'authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match)
      throw new ApiException(
        ErrorCodes.InvalidApiKey,
        'missing Authorization header; send Authorization: Bearer <API key>',
      );
    const principal = await this.keys.authenticate(match[1]);
    if (!principal) throw new ApiException(ErrorCodes.InvalidApiKey, 'the API key is not valid');
    // The route's marking is read only for a public key (secret keys may call every route).
    if (
      principal.key_type === 'public' &&
      !this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY_ALLOWED, [context.getHandler(), context.getClass()])
    ) {
      throw new ApiException(
        ErrorCodes.SecretKeyRequired,
        'this endpoint needs your secret key (sk_…); public keys may only initialize transactions',
      );
    }
    // Rate limits are per key, shared by every replica (Redis).
    const limit = await this.limiter.take(`${principal.business_id}:${principal.mode}:${principal.key_type}`);
    http.getResponse<ApiReply>().headers(limit.headers);
    if (!limit.allowed) {
      throw new ApiException(
        ErrorCodes.RateLimited,
        `too many requests; retry after ${limit.headers['Retry-After']} s`,
        undefined,
        limit.headers,
      );
    }
    req.principal = principal;
    // Last: a key is claimed only by a request that may run (authenticated, within its limit).
    const claiming = this.idempotency.claim(req);
    if (claiming) await claiming;
    return true;
  }
}

/** The RPC context for the authenticated request. */
export function rpcContext(req: ApiRequest): RpcContext {
  const p = req.principal;
  if (!p) throw new Error('rpcContext called on an unauthenticated request');
  const ctx: RpcContext = { request_id: req.requestId, business_id: p.business_id, mode: p.mode, key_type: p.key_type };
  if (req.idempotencyClaim) ctx.idempotency_key = req.idempotencyClaim.serviceKey;
  return ctx;
}
