import type { Mode } from './common';
import { MODES } from './common';
import { EVENT_DATA_CHECKS } from './event-checks.generated';

/**
 * Every Kafka message value is one JSON envelope. `id` is globally unique and is what
 * idempotent consumers record; `data` is typed by `type` (see events.ts).
 */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  version: number;
  occurred_at: string;
  producer: string;
  mode: Mode;
  business_id: number;
  correlation_id: string | null;
  data: TData;
}

const MODE_SET: ReadonlySet<string> = new Set(MODES);
/** A timestamp with its zone (Z or ±hh:mm): what events carry and what operators type. */
export const ISO_8601_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Validates an envelope read from Kafka, and the data of the types the services consume; returns a
 * reason when it is not one.
 */
export function envelopeProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'envelope is not a JSON object';
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id.length === 0) return 'id must be a non-empty string';
  if (typeof e.type !== 'string' || e.type.length === 0) return 'type must be a non-empty string';
  if (!Number.isInteger(e.version) || (e.version as number) < 1) return 'version must be a positive integer';
  if (
    typeof e.occurred_at !== 'string' ||
    !ISO_8601_WITH_ZONE.test(e.occurred_at) ||
    Number.isNaN(Date.parse(e.occurred_at))
  )
    return 'occurred_at must be an ISO-8601 timestamp';
  if (typeof e.producer !== 'string') return 'producer must be a string';
  if (typeof e.mode !== 'string' || !MODE_SET.has(e.mode)) return 'mode must be test or live';
  if (!Number.isInteger(e.business_id)) return 'business_id must be an integer';
  if (e.correlation_id !== null && typeof e.correlation_id !== 'string')
    return 'correlation_id must be a string or null';
  if (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)) return 'data must be an object';
  // The data of a consumed type is checked against what its consumers read (event-schemas.ts).
  // Own keys only: a type named after an Object.prototype member is not a consumed type.
  const check = Object.hasOwn(EVENT_DATA_CHECKS, e.type) ? EVENT_DATA_CHECKS[e.type] : undefined;
  if (check && !check(e.data)) return `data is not what a ${e.type} event carries (event-schemas.ts)`;
  return null;
}
