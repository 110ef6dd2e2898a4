import type { Metadata } from './events';

/** Metadata and description as every read and webhook shows them: `{}` and null when none was set (as Stripe). */
export function annotationsOf(o: { metadata?: Metadata | null; description?: string | null }): {
  metadata: Metadata;
  description: string | null;
} {
  return { metadata: o.metadata ?? {}, description: o.description ?? null };
}
