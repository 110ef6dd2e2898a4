/**
 * The fake DPO's own reading and writing of API3G XML, written apart from the connector's so that a
 * mistake in one is caught by the other. Reading builds a small element tree (no attributes kept,
 * no DOCTYPE or entities beyond the five XML ones and character references).
 */

export interface XmlElement {
  name: string;
  text: string;
  children: XmlElement[];
}

const DECODE: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string | null {
  let ok = true;
  const out = text.replace(/&([^;&\s]{1,10});|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) return ((ok = false), whole);
    if (/^#x[0-9a-f]+$/i.test(ref)) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (/^#\d+$/.test(ref)) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    if (ref in DECODE) return DECODE[ref];
    ok = false;
    return whole;
  });
  return ok ? out : null;
}

/** Parses a document into its root element; null when it is not well-formed XML (as the fake reads it). */
export function readXml(body: string): XmlElement | null {
  const text = body
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  if (text === '' || /<!DOCTYPE/i.test(text)) return null;
  const token = /<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.-]*)(?:\s[^<>]*?)?(\/?)>|([^<]+)/gy;
  const stack: XmlElement[] = [{ name: '#document', text: '', children: [] }];
  let consumed = 0;
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    consumed = token.lastIndex;
    const top = stack[stack.length - 1];
    if (m[1] !== undefined) top.text += m[1];
    else if (m[5] !== undefined) {
      const t = decode(m[5]);
      if (t === null) return null;
      top.text += t;
    } else if (m[2] === '/') {
      if (top.name !== m[3] || stack.length === 1) return null;
      stack.pop();
    } else {
      const el: XmlElement = { name: m[3], text: '', children: [] };
      top.children.push(el);
      if (m[4] !== '/') stack.push(el);
    }
  }
  if (consumed !== text.length || stack.length !== 1) return null;
  const doc = stack[0];
  return doc.children.length === 1 && doc.text.trim() === '' ? doc.children[0] : null;
}

/** The children of `el` named `name` (case-sensitive, as DPO documents its names). */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** The trimmed text of the one child named `name`; undefined when absent. */
export function childText(el: XmlElement, name: string): string | undefined {
  return childrenNamed(el, name)[0]?.text.trim();
}

/** A child element name that appears more than once under `el` (DPO's 960 "Tag has been sent multiple times"). */
export function repeatedTag(el: XmlElement): string | null {
  const seen = new Set<string>();
  for (const c of el.children) {
    if (seen.has(c.name) && c.name !== 'Service') return c.name;
    seen.add(c.name);
    const nested = repeatedTag(c);
    if (nested !== null) return nested;
  }
  return null;
}

/** Every leaf element of a request, flattened (the last one wins): what tests look at. */
export function flatten(el: XmlElement, out: Record<string, string> = {}): Record<string, string> {
  for (const c of el.children) {
    if (c.children.length === 0) out[c.name] = c.text.trim();
    else flatten(c, out);
  }
  return out;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A flat API3G reply, elements in the given order: `<?xml…?><API3G><Result>…</Result>…</API3G>` with line breaks,
 * as DPO writes it.
 */
export function writeApi3g(fields: ReadonlyArray<readonly [string, string]>): string {
  const elements = fields.map(([k, v]) => `  <${k}>${escape(v)}</${k}>\n`).join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<API3G>\n${elements}</API3G>\n`;
}

/**
 * A received amount ("10.5", "10.50", "10") in two-decimal form, or null unless a positive decimal of at most two
 * places.
 */
export function twoDecimals(amount: string): string | null {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (m === null) return null;
  const whole = m[1].replace(/^0+(?=\d)/, '');
  const cents = (m[2] ?? '').padEnd(2, '0');
  return whole === '0' && cents === '00' ? null : `${whole}.${cents}`;
}

/** "10.50" → 1050 (the fake's own arithmetic for refunds). */
export function cents(amount: string): number {
  const [whole, frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
}

export function fromCents(n: number): string {
  return `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}
