import { writeFileSync } from 'node:fs';
import { ENDPOINTS } from './request-endpoints';
import { ENDPOINT_NAMES, inputsOf } from './request-case-inputs';
import { compact, parsedInput, validateAs, type Outcome } from './request-validators';

/**
 * One case: what was changed, the request (a body as its JSON, a query string as a string; for the
 * change "no body", null), and what validation made of it.
 */
export type RequestCase = [change: string, input: unknown, outcome: Outcome];

/**
 * Runs every input through the current validation and writes the cases, one a line; capturing
 * again records today's answers, so read the diff. Kept: one input per outcome of each field
 * changed, and one per outcome among the several-field changes. Bodies are written as sent, so `-0`
 * and `"__proto__"` keys read back as the gateway's JSON parser reads them.
 */
export function captureRequestCases(file: string, combinations: number): void {
  const lines: string[] = [];
  for (const endpoint of ENDPOINT_NAMES) {
    const kind = ENDPOINTS[endpoint].kind;
    const seen = new Set<string>();
    const cases: string[] = [];
    for (const input of inputsOf(endpoint, combinations)) {
      const outcome = compact(validateAs(endpoint, parsedInput(kind, input.text, input.change)));
      const key = `${input.change.includes(';') ? '*' : input.change} ${JSON.stringify(outcome)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const written = kind === 'query' ? JSON.stringify(input.text) : (input.text ?? 'null');
      cases.push(`[${JSON.stringify(input.change)},${written},${JSON.stringify(outcome)}]`);
    }
    lines.push(`${JSON.stringify(endpoint)}:[\n${cases.join(',\n')}]`);
  }
  writeFileSync(file, `{\n${lines.join(',\n')}\n}\n`);
}
