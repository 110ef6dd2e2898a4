import { BODY_ENDPOINTS } from './request-body-endpoints';
import { QUERY_ENDPOINTS } from './request-query-endpoints';

/**
 * Every request body and query string the gateway validates, by endpoint: a valid example and the
 * values worth trying on each field beyond the generic ones (request-case-inputs.ts). The
 * characterization cases (request-validation.cases.json) are generated from this table.
 */
export interface EndpointInputs {
  kind: 'body' | 'query';
  /** A request that passes validation (query values are strings, as the query parser gives them). */
  valid: Record<string, unknown>;
  /** Values to try on each field, besides the generic ones. */
  values: Record<string, unknown[]>;
}

export const ENDPOINTS: Record<string, EndpointInputs> = { ...BODY_ENDPOINTS, ...QUERY_ENDPOINTS };
