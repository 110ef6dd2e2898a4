import type { Metadata } from './events';

/** Metadata and description as every read and webhook shows them: `{}` and null when none was set (Stripe's behaviour). */
export function annotationsOf(o: { metadata?: Metadata | null; description?: string | null }): {
  metadata: Metadata;
  description: string | null;
} {
  return { metadata: o.metadata ?? {}, description: o.description ?? null };
}
