import type { Metadata } from './events';
import { Nullable, Str, Type } from './schema-kit';

/** Metadata and description as every read and webhook shows them: `{}` and null when none was set (Stripe's behaviour). */
export function annotationsOf(o: { metadata?: Metadata | null; description?: string | null }): { metadata: Metadata; description: string | null } {
  return { metadata: o.metadata ?? {}, description: o.description ?? null };
}

/** Their schemas (docs/api.md, Metadata and description). */
export const MetadataSchema = Type.Record(Type.String(), Type.String(), { description: 'Your key-value pairs; {} when none were set' });
export const AnnotationFields = { metadata: MetadataSchema, description: Nullable(Str('Your free text; null when none was set')) };
