import { SetMetadata } from '@nestjs/common';
import type { ErrorCode } from '@payments/contracts';
import type { RequestObject } from '../http/request-schema';

/**
 * What the generated OpenAPI document cannot read from a handler's signature: the values a path
 * parameter may take, a body whose shape depends on one of them, and the errors the handler
 * answers. Read by buildOpenApiDocument; the handler still checks the first two itself.
 */
export const PATH_ENUMS = 'openapi-path-enums';
export const BODY_ONE_OF = 'openapi-body-one-of';
export const API_ERRORS = 'openapi-error-codes';

/** Documents a path parameter as one of `values` (any other value answers 404). */
export const ApiPathEnum = (name: string, values: readonly string[]) =>
  SetMetadata(PATH_ENUMS, { [name]: [...values] });

/** Documents the request body as one of these request schemas (the handler picks and validates it). */
export const ApiBodyOneOf = (...schemas: RequestObject[]) => SetMetadata(BODY_ONE_OF, schemas);

/**
 * The error codes a handler answers beyond its route's own (see error-docs.ts), e.g. not_found or outcome_unknown. On a
 * controller it applies to every handler. Every documented handler declares them, `@ApiErrors()` when there are none.
 */
export const ApiErrors = (...codes: ErrorCode[]) => SetMetadata(API_ERRORS, codes);
