import { Closed, Str, Type } from './schema-kit';

/** The answers of every HTTP server's health endpoints, as the gateway's OpenAPI document states them. */
export const HealthLive = Closed({ status: Str() });
export const HealthReady = Closed({
  status: Str('ok, or unavailable (with status 503)'),
  checks: Type.Record(Type.String(), Type.String(), { description: 'up, or why not, per dependency' }),
});
