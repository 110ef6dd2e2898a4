/**
 * DPO's API3G XML, both ways, without an XML library. Replies are flat and read by element name in
 * any order; nested elements are skipped, and a DOCTYPE, a processing instruction or a repeated
 * element is refused.
 */

/** An element: a name and a text, or a name and child elements. */
export type XmlNode = readonly [name: string, value: string | readonly XmlNode[]];

/** A real reply is a few kilobytes; anything far larger is not one. */
export const MAX_XML_CHARS = 64 * 1024;

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

// Characters XML 1.0 cannot carry at all: controls but tab, CR and LF; U+FFFE/U+FFFF; lone surrogates.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const LONE_HIGH_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])/;
const LONE_LOW_SURROGATE = /(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NOT_XML = new RegExp(`${NOT_XML_CHAR.source}|${LONE_HIGH_SURROGATE.source}|${LONE_LOW_SURROGATE.source}`, 'g');

/** Escapes text for element content: `& < > " '`, and drops characters XML cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function render(node: XmlNode): string {
  const [name, value] = node;
  if (!NAME.test(name)) throw new Error(`not an XML element name: ${name}`);
  const inner = typeof value === 'string' ? escapeXml(value) : value.map(render).join('');
  return `<${name}>${inner}</${name}>`;
}

/** `<?xml version="1.0" encoding="utf-8"?><API3G>…</API3G>` with the given children, in order. */
export function buildApi3g(children: readonly XmlNode[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>${render(['API3G', children])}`;
}

/** The elements of a flat reply: name → text (decoded), or null for an element with children. */
export type Api3gFields = ReadonlyMap<string, string | null>;

export type ParsedApi3g = { ok: true; fields: Api3gFields } | { ok: false; reason: string };

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(text: string): string | null {
  let bad = false;
  const out = text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]+);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) return ((bad = true), whole);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (code > 0x10ffff || code === 0) return ((bad = true), whole);
      return String.fromCodePoint(code);
    }
    const named = ENTITIES[ref];
    if (named === undefined) bad = true;
    return named ?? whole;
  });
  return bad ? null : out;
}

/** Element content: text and CDATA sections, or null when it holds elements (or anything else). */
function contentText(raw: string): { text: string | null; nested: boolean } {
  let text = '';
  const parts = raw.split(/(<!\[CDATA\[[\s\S]*?\]\]>)/);
  for (const part of parts) {
    if (part.startsWith('<![CDATA[')) text += part.slice(9, -3);
    else if (part.includes('<')) return { text: null, nested: true };
    else {
      const decoded = decodeText(part);
      if (decoded === null) return { text: null, nested: false };
      text += decoded;
    }
  }
  return { text, nested: false };
}

/** The `</name>` closing an element opened before `from` (start, end), counting nested elements of the same name. */
function closeOf(body: string, name: string, from: number): { start: number; end: number } | null {
  const tag = new RegExp(`<(/?)${name.replace(/\./g, '\\.')}(?:\\s[^>]*?)?(/?)>`, 'g');
  tag.lastIndex = from;
  let depth = 1;
  for (let m = tag.exec(body); m !== null; m = tag.exec(body)) {
    if (m[2] === '/') continue;
    depth += m[1] === '/' ? -1 : 1;
    if (depth === 0) return { start: m.index, end: tag.lastIndex };
  }
  return null;
}

/**
 * Reads a reply or a push: one root element `API3G`, its children by name. Element names are kept
 * as written (lookups ignore case: see `fieldOf`). Reasons are safe to log: they never quote the body.
 */
export function parseApi3g(body: string): ParsedApi3g {
  if (body.length > MAX_XML_CHARS) return { ok: false, reason: 'reply too large' };
  let text = body.replace(/^\uFEFF/, '').trim();
  if (text === '') return { ok: false, reason: 'empty reply' };
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, reason: 'XML with a DOCTYPE is not taken' };
  text = text
    .replace(/^<\?xml[^>]*\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  const root = /^<API3G(?:\s[^>]*)?>([\s\S]*)<\/API3G>$/i.exec(text);
  if (root === null)
    return { ok: false, reason: /^<API3G\s*\/>$/i.test(text) ? 'empty API3G element' : 'not an API3G XML document' };
  const inner = root[1];
  const fields = new Map<string, string | null>();
  const seen = new Set<string>();
  let at = 0;
  const open = /\s*<([A-Za-z_][A-Za-z0-9_.-]*)(?:\s[^>]*?)?(\/?)>/y;
  while (at < inner.length) {
    if (inner.slice(at).trim() === '') break;
    open.lastIndex = at;
    const m = open.exec(inner);
    if (m === null) return { ok: false, reason: 'not a well-formed API3G document' };
    const name = m[1];
    const lower = name.toLowerCase();
    if (seen.has(lower)) return { ok: false, reason: `element ${name.slice(0, 40)} appears twice` };
    seen.add(lower);
    if (m[2] === '/') {
      fields.set(name, '');
      at = open.lastIndex;
      continue;
    }
    const close = closeOf(inner, name, open.lastIndex);
    if (close === null) return { ok: false, reason: `element ${name.slice(0, 40)} is not closed` };
    const content = contentText(inner.slice(open.lastIndex, close.start));
    if (content.text === null && !content.nested)
      return { ok: false, reason: `element ${name.slice(0, 40)} has a malformed entity` };
    fields.set(name, content.text);
    at = close.end;
  }
  return { ok: true, fields };
}

/** The trimmed text of an element, looked up without regard to case; undefined when absent or nested. */
export function fieldOf(fields: Api3gFields, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of fields) if (k.toLowerCase() === lower) return v === null ? undefined : v.trim();
  return undefined;
}
