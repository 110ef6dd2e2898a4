import { ENDPOINTS, type EndpointInputs } from './request-endpoints';

/**
 * Inputs for the request-validation cases: each endpoint's valid example changed one field at a
 * time (left out, or set to each generic and field-specific value), with unknown and
 * prototype-named keys added, keys reordered, and several fields changed at once (seeded, so runs
 * repeat). A body is JSON text as sent (a "__proto__" key is an own key, as JSON.parse makes it).
 */
export interface RequestInput {
  endpoint: string;
  /** The fields changed (`+key`: a key added), for reading a failing case; `;` between several. */
  change: string;
  /** JSON text of the body, or the query string; null for a request without a body. */
  text: string | null;
}

/** A JSON number spelled as given (JSON.stringify cannot write -0 or 1E21). */
class Raw {
  constructor(readonly json: string) {}
}

const objectOf = (json: string): unknown => JSON.parse(json);

const BODY_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  2,
  1.5,
  2147483647,
  2147483648,
  1e21,
  new Raw('-0'),
  new Raw('1.0'),
  new Raw('1E2'),
  new Raw('9007199254740993'),
  '',
  ' ',
  'a',
  '0',
  '1',
  '1.5',
  'true',
  'null',
  ' a ',
  '😀',
  '\u2764\uFE0F',
  '$property',
  '$value',
  'x'.repeat(101),
  '😀'.repeat(60),
  [],
  [1],
  ['a'],
  [null],
  [[]],
  [{}],
  {},
  { a: 'b' },
  { a: 1 },
  objectOf('{"__proto__":"x"}'),
  objectOf('{"constructor":"x"}'),
];

const QUERY_VALUES: (string | string[])[] = [
  '',
  ' ',
  'a',
  '0',
  '1',
  '-1',
  '-0',
  '1.5',
  '1e2',
  '0x10',
  ' 5 ',
  'Infinity',
  'NaN',
  'null',
  'true',
  '😀',
  '$property',
  'x'.repeat(101),
  ['a', 'b'],
  ['1', '1'],
  [''],
];

const BODY_EXTRA_KEYS: [string, unknown][] = [
  ['extra', 1],
  ['extra', {}],
  ['__proto__', 1],
  ['__proto__', { a: 1 }],
  ['__proto__', null],
  ['constructor', 'x'],
  ['constructor', {}],
  ['toString', 1],
  ['hasOwnProperty', 'x'],
  ['valueOf', 1],
  ['isPrototypeOf', 1],
  ['__defineGetter__', 1],
  ['0', 1],
  ['property', 1],
  ['(', 1],
  ['Amount', 1],
];
const QUERY_EXTRA_KEYS: [string, string][] = [
  ['extra', '1'],
  ['__proto__', '1'],
  ['constructor', 'x'],
  ['toString', 'x'],
  ['hasOwnProperty', 'x'],
  ['valueOf', ''],
  ['created[eq]', '1'],
  ['LIMIT', '1'],
  ['0', '1'],
  ['limit[]', '1'],
];

type Entries = [string, unknown][];

function jsonOf(value: unknown): string {
  if (value instanceof Raw) return value.json;
  if (Array.isArray(value)) return `[${value.map(jsonOf).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonOf(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function textOf(kind: EndpointInputs['kind'], entries: Entries): string {
  if (kind === 'body') return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonOf(v)}`).join(',')}}`;
  return entries
    .flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(String(x))}`),
    )
    .join('&');
}

/** mulberry32: a small seeded generator, so a run's cases are the same every time. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ABSENT = Symbol('absent');

function withChange(entries: Entries, key: string, value: unknown): Entries {
  const i = entries.findIndex(([k]) => k === key);
  if (value === ABSENT) return entries.filter(([k]) => k !== key);
  if (i === -1) return [...entries, [key, value]];
  return entries.map((e, j) => (j === i ? [key, value] : e));
}

/** Every input of one endpoint; `combinations` changes of several fields at once. */
export function inputsOf(endpoint: string, combinations: number, seed = 1): RequestInput[] {
  const spec = ENDPOINTS[endpoint];
  const valid: Entries = Object.entries(spec.valid);
  const generic = spec.kind === 'body' ? BODY_VALUES : QUERY_VALUES;
  const extraKeys: Entries = spec.kind === 'body' ? BODY_EXTRA_KEYS : QUERY_EXTRA_KEYS;
  const fields = [...new Set([...valid.map(([k]) => k), ...Object.keys(spec.values)])];
  const pools = new Map(fields.map((f) => [f, [ABSENT, ...generic, ...(spec.values[f] ?? [])]]));
  const out: RequestInput[] = [];
  const add = (change: string, entries: Entries) => out.push({ endpoint, change, text: textOf(spec.kind, entries) });

  add('valid', valid);
  add('valid, keys reversed', [...valid].reverse());
  add('nothing', []);
  if (spec.kind === 'body') {
    out.push({ endpoint, change: 'no body', text: null });
    for (const top of ['null', '[]', '[{}]', '"x"', '5', 'true'])
      out.push({ endpoint, change: `body ${top}`, text: top });
  }
  for (const field of fields)
    for (const value of pools.get(field)!) add(value === ABSENT ? `-${field}` : field, withChange(valid, field, value));
  for (const [key, value] of extraKeys) {
    add(`+${key}`, [...valid, [key, value]]);
    add(`only +${key}`, [[key, value]]);
  }
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  for (let n = 0; n < combinations; n++) {
    let entries: Entries = next() < 0.2 ? [] : valid;
    const changes: string[] = [];
    const count = 1 + Math.floor(next() * 4);
    for (let c = 0; c < count; c++) {
      if (next() < 0.15) {
        const [key, value] = pick(extraKeys);
        entries = [...entries, [key, value]];
        changes.push(`+${key}`);
      } else {
        const field = pick(fields);
        const value = pick(pools.get(field)!);
        entries = withChange(entries, field, value);
        changes.push(value === ABSENT ? `-${field}` : field);
      }
    }
    if (next() < 0.3) entries = [...entries].sort(() => next() - 0.5);
    add(changes.join('; '), entries);
  }
  return out;
}

export const ENDPOINT_NAMES = Object.keys(ENDPOINTS);
