/** `0`, or a whole number with a unit: `500ms`, `90s`, `30m`, `12h`, `5d`. */
export const DURATION_PATTERN = /^(0|[1-9]\d{0,8}(ms|s|m|h|d))$/;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number {
  const m = DURATION_PATTERN.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return m[2] ? Number.parseInt(text, 10) * UNIT_MS[m[2]] : 0;
}

export interface DisableRule {
  /** Consecutive failed attempts. */
  after: number;
  /** How long the failures must have lasted; 0: the count alone decides. */
  minFailingMs: number;
}

/**
 * Disables a failing callback at once on 410 Gone, otherwise only after `after` failures in a row over at least
 * `minFailingMs`, so a burst of failures in a short outage does not disable an endpoint that is back a minute later.
 */
export function disableReason(
  rule: DisableRule,
  failure: { gone: boolean; count: number; failingForMs: number },
): string | null {
  if (failure.gone) return 'the endpoint answered 410 Gone';
  if (failure.count < rule.after || failure.failingForMs < rule.minFailingMs) return null;
  return rule.minFailingMs > 0
    ? `${failure.count} consecutive failed deliveries over ${Math.round(failure.failingForMs / 1000)} s`
    : `${failure.count} consecutive failed deliveries`;
}
