import { DELIVERY_STATUSES, ISO_8601_WITH_ZONE, MODES, PG_INT_MAX } from '@payments/contracts';
import type { Static } from '@payments/contracts/schemas';
import { cursorFields } from '../http/cursor-query';
import { timestamp } from '../http/dates';
import { integerInRange } from '../http/request-fields';
import {
  arrayMaxSize,
  each,
  isArray,
  isBoolean,
  isIn,
  isInt,
  isLength,
  isString,
  matches,
  max,
  maxLength,
  min,
} from '../http/request-rules';
import { optional, required, requestBody, requestQuery } from '../http/request-schema';

/** Requests of /v1/callback and of the admin webhooks API. Rules of one rank are reported in the order listed. */

/** GET /v1/callback/list: page size default and maximum (docs/api.md). */
export const CALLBACK_LIST_DEFAULT = 50;
export const CALLBACK_LIST_MAX = 100;

const eventNames = () => {
  const message = 'events must be an array of event names';
  return [
    each(isString(message)),
    arrayMaxSize(20, 'events may name at most 20 event types'),
    isArray(message),
  ] as const;
};
const description = () => optional([isLength(0, 500, 'description must be at most 500 characters'), isString()]);

export const CreateCallbackDto = requestBody('CreateCallbackDto', {
  url: required([maxLength(2048, 'url must be at most 2048 characters'), isString('url is required')]),
  events: required(eventNames()),
  description: description(),
});
export type CreateCallbackDto = Static<typeof CreateCallbackDto>;

export const UpdateCallbackDto = requestBody('UpdateCallbackDto', {
  url: optional([maxLength(2048, 'url must be at most 2048 characters'), isString('url must be a string')]),
  events: optional(eventNames()),
  is_active: optional([isBoolean('is_active must be true or false')]),
  description: description(),
});
export type UpdateCallbackDto = Static<typeof UpdateCallbackDto>;

const pageFields = () => ({
  limit: integerInRange('limit', 1, CALLBACK_LIST_MAX, { fromQuery: true }),
  skip: integerInRange('skip', 0, PG_INT_MAX, { fromQuery: true }),
});

/** GET /v1/callback/list: newest first by offset (`skip`) and/or cursor (a callback id). */
export const CallbackPageQuery = requestQuery('CallbackPageQuery', {
  ...pageFields(),
  ...cursorFields({ pattern: /^[1-9]\d{0,8}$/, noun: 'a callback id' }),
});
export type CallbackPageQuery = Static<typeof CallbackPageQuery>;

/** GET /v1/callback/{id}/deliveries: newest first by offset and/or cursor (a delivery id). */
export const DeliveriesQuery = requestQuery('DeliveriesQuery', {
  status: optional([isIn(DELIVERY_STATUSES, `status must be one of ${DELIVERY_STATUSES.join(', ')}`)]),
  ...cursorFields({ pattern: /^dlv_[0-9a-f]{32}$/, noun: 'a delivery id (dlv_…)' }),
  ...pageFields(),
});
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const RecoverDto = requestBody('RecoverDto', { since: required([timestamp()]) });
export type RecoverDto = Static<typeof RecoverDto>;

const businessId = 'business_id must be a business id';

/** POST /admin/v1/webhooks/recover body. */
export const AdminRecoverDto = requestBody('AdminRecoverDto', {
  business_id: required([max(PG_INT_MAX, businessId), min(1, businessId), isInt(businessId)]),
  mode: required([isIn(MODES, 'mode must be test or live')]),
  since: required([
    matches(ISO_8601_WITH_ZONE, 'since must be an ISO-8601 timestamp with a zone, e.g. 2026-01-31T12:00:00Z'),
  ]),
  dry_run: optional([isBoolean('dry_run must be true or false')]),
  after: optional([matches(/^\d{1,18}$/, 'after must be the next cursor of a previous page')]),
  limit: integerInRange('limit', 1, 1000),
});
export type AdminRecoverDto = Static<typeof AdminRecoverDto>;
