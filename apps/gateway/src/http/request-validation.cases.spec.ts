import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureRequestCases, type RequestCase } from './__tests__/capture-request-cases';
import { ENDPOINTS } from './__tests__/request-endpoints';
import { compact, parsedInput, validateAs, type Outcome } from './__tests__/request-validators';

const FILE = join(__dirname, '__tests__', 'request-validation.cases.json');

/** Keys in one order at every depth. */
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;

/**
 * A query's fields as the handler receives them, in any order (handlers read them by name; a
 * body's order is the order its fields reach a service, so it is compared as it is).
 */
const comparable = (kind: 'body' | 'query', outcome: Outcome): Outcome =>
  kind === 'query' && 'ok' in outcome ? { ok: sorted(outcome.ok) } : outcome;

/**
 * Characterization of request validation (request-endpoints.ts): each body or query string with
 * exactly what validation made of it, the value the handler receives (coercions included) or the
 * error message and `errors` list in order. Captured from the class-validator pipe (ADR 0016);
 * where class-transformer crashed (a 500) the case records the 400 that replaced it.
 */
describe('request validation answers every recorded case as recorded', () => {
  if (process.env.CAPTURE_REQUEST_CASES) {
    it('captures the cases', () => captureRequestCases(FILE, Number(process.env.CAPTURE_REQUEST_CASES)), 600_000);
    return;
  }
  const cases = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, RequestCase[]>;
  it.each(Object.keys(ENDPOINTS))('%s', (endpoint) => {
    const { kind } = ENDPOINTS[endpoint];
    const mismatches = [];
    for (const [change, input, outcome] of cases[endpoint]) {
      // Bodies are recorded as JSON (already parsed, as the gateway's parser would have), queries as text.
      const value =
        kind === 'query' ? parsedInput(kind, input as string, change) : change === 'no body' ? undefined : input;
      const actual = compact(validateAs(endpoint, value));
      if (JSON.stringify(comparable(kind, actual)) !== JSON.stringify(comparable(kind, outcome))) {
        mismatches.push({ change, input, expected: outcome, actual });
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(cases[endpoint].length).toBeGreaterThan(20);
  });
});
