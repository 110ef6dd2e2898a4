import type { ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_HTTP_STATUS, ErrorCodes, type ErrorCode } from '@payments/contracts';

/** What a route is, as far as the errors it answers by construction go. */
export interface RouteKind {
  method: string;
  /** Takes a request body. */
  body: boolean;
  /** Behind the API key guard (a merchant's key), or the admin token. */
  apiKey: boolean;
  admin: boolean;
  /** A public key may call it. */
  publicKeyAllowed: boolean;
}

/**
 * The errors every route of a kind answers, whatever its handler does: the input guard and
 * validation (400), sizes (413), bugs (500), unreachable services or stores (503); the guards'
 * refusals; the idempotency layer's on a guarded POST (every POST with an Idempotency-Key).
 */
export function impliedErrors(route: RouteKind): ErrorCode[] {
  const guarded = route.apiKey || route.admin;
  return [
    ErrorCodes.ValidationError,
    ...(guarded ? [ErrorCodes.InvalidApiKey] : []),
    ...(route.apiKey && !route.publicKeyAllowed ? [ErrorCodes.SecretKeyRequired] : []),
    ...(route.method === 'post' && guarded ? [ErrorCodes.IdempotencyInProgress, ErrorCodes.IdempotencyKeyReused] : []),
    ErrorCodes.PayloadTooLarge,
    ...(route.apiKey ? [ErrorCodes.RateLimited] : []),
    ErrorCodes.InternalError,
    ErrorCodes.ServiceUnavailable,
  ];
}

/** What each code means, after its name in a response's description. */
const MEANING: Partial<Record<ErrorCode, string>> = {
  validation_error:
    'malformed JSON, wrong type, missing or unknown field, a broken rule, control characters, bad UTF-8, ' +
    'nesting over 32 levels',
  secret_key_required: 'a public key was used',
  not_found: 'also for another business’s or mode’s ids',
  duplicate_reference: 'the transaction_reference was used before in this mode',
  idempotency_in_progress: 'a request with the same Idempotency-Key is still running',
  idempotency_key_reused: 'the Idempotency-Key was used with a different request',
  rate_limited: 'see Retry-After and RateLimit-* headers',
  internal_error: 'only the request id is revealed',
  service_unavailable: 'a downstream service or store is unreachable; nothing was written',
  outcome_unknown: 'no answer came in time: it may have been applied; retry with the same Idempotency-Key',
  payment_declined: 'the provider refused the payment; nothing was charged',
  provider_error: 'the provider’s answer could not be read; the payment stays pending until its outcome is known',
  provider_unavailable: 'the provider could not be reached; nothing was charged',
};

const describe = (code: ErrorCode, route: RouteKind): string => {
  if (code === ErrorCodes.PayloadTooLarge)
    return `${code}: ${route.body ? 'body over 64 KiB or query string over 8 KiB' : 'query string over 8 KiB'}`;
  return MEANING[code] ? `${code}: ${MEANING[code]}` : code;
};

/**
 * The error responses of a route: the implied codes and the handler's declared ones, grouped by
 * the status each maps to (ERROR_HTTP_STATUS), every body in the error model (ErrorBody).
 */
export function errorResponses(route: RouteKind, declared: readonly ErrorCode[]): Record<string, ResponseObject> {
  const codes = [...new Set([...impliedErrors(route), ...declared])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_HTTP_STATUS[code], [...(byStatus.get(ERROR_HTTP_STATUS[code]) ?? []), code]);
  const responses: Record<string, ResponseObject> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    responses[String(status)] = {
      description: byStatus
        .get(status)!
        .map((c) => describe(c, route))
        .join('; '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    };
  }
  return responses;
}
