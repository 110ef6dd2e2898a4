import type { Static } from '@payments/contracts/schemas';
import { MODES } from '@payments/contracts';
import {
  arrayMaxSize,
  custom,
  each,
  isArray,
  isIn,
  isInt,
  isLength,
  isString,
  max,
  maxLength,
  min,
} from '../http/request-rules';
import { optional, required, requestBody } from '../http/request-schema';
import { REDIRECT_ORIGINS_MAX, parseRedirectOrigin } from './redirect-origins';

/** Requests of the admin API's businesses and of /v1/settings. Rules of one rank are reported in the order listed. */

export const CreateBusinessDto = requestBody('CreateBusinessDto', {
  name: required([isLength(1, 200, 'name must be 1 to 200 characters'), isString('name must be a string')]),
});
export type CreateBusinessDto = Static<typeof CreateBusinessDto>;

export const RollKeyDto = requestBody('RollKeyDto', {
  mode: required([isIn(MODES, 'mode must be test or live')]),
  type: required([isIn(['secret', 'public'], 'type must be secret or public')]),
  /** How long the old key keeps working (default 0: revoked at once; at most 7 days). */
  grace_seconds: optional([
    max(604_800, 'grace_seconds must be at most 604800 (7 days)'),
    min(0),
    isInt('grace_seconds must be an integer'),
  ]),
});
export type RollKeyDto = Static<typeof RollKeyDto>;

const isOrigin = (v: unknown) => typeof v === 'string' && 'origin' in parseRedirectOrigin(v);

/** Every entry an origin; the message names the first that is not. */
const redirectOrigins = () =>
  custom<string[]>(
    'redirectOrigins',
    (v) => Array.isArray(v) && v.every(isOrigin),
    (_p, v) => {
      const list = Array.isArray(v) ? (v as unknown[]) : [];
      const i = list.findIndex((entry) => !isOrigin(entry));
      const bad = list[i];
      const problem =
        typeof bad === 'string' ? (parseRedirectOrigin(bad) as { problem: string }).problem : 'must be a string';
      return `redirect_origins entry ${i} ${problem}`;
    },
    { type: 'array', description: 'Origins: https://host[:port], or http://localhost[:port]' },
  );

/** PUT /v1/settings/redirect_origins and its admin twin: the whole list, replacing the previous one. */
export const RedirectOriginsDto = requestBody('RedirectOriginsDto', {
  redirect_origins: required([
    redirectOrigins(),
    each(maxLength(200, 'redirect_origins entries must be at most 200 characters')),
    arrayMaxSize(REDIRECT_ORIGINS_MAX, `redirect_origins may list at most ${REDIRECT_ORIGINS_MAX} origins`),
    isArray('redirect_origins must be an array of origins'),
  ]),
});
export type RedirectOriginsDto = Static<typeof RedirectOriginsDto>;
