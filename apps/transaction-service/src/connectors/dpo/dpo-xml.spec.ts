import { buildApi3g, escapeXml, fieldOf, parseApi3g } from './dpo-xml';

describe('DPO XML', () => {
  it('escapes the five special characters and drops characters XML cannot carry', () => {
    expect(escapeXml(`Tom & Jerry's <"shop">`)).toBe('Tom &amp; Jerry&apos;s &lt;&quot;shop&quot;&gt;');
    expect(escapeXml('a\u0000b\u0008c\td\ne\u001ff')).toBe('abc\td\nef');
    expect(escapeXml('ok \ud83d\ude00 \ud800 end')).toBe('ok \ud83d\ude00  end');
  });

  it('builds an API3G document, children in the given order, nested levels included', () => {
    const xml = buildApi3g([
      ['CompanyToken', 'T'],
      ['Request', 'createToken'],
      ['Transaction', [['CompanyRef', 'a&b</CompanyRef><x>']]],
    ]);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?><API3G><CompanyToken>T</CompanyToken><Request>createToken</Request>' +
        '<Transaction><CompanyRef>a&amp;b&lt;/CompanyRef&gt;&lt;x&gt;</CompanyRef></Transaction></API3G>',
    );
    expect(fieldOf((parseApi3g(xml) as { ok: true; fields: Map<string, string | null> }).fields, 'request')).toBe(
      'createToken',
    );
  });

  it('refuses an element name that is not one', () => {
    expect(() => buildApi3g([['bad name', 'x']])).toThrow();
  });

  it('reads a reply by element name, whatever the order, with whitespace, entities and CDATA', () => {
    const parsed = parseApi3g(`\uFEFF<?xml version="1.0" encoding="utf-8"?>
      <API3G>
        <!-- a comment -->
        <TransRef>R1</TransRef>
        <ResultExplanation><![CDATA[Tom & <Jerry>]]> &amp; co &#65;&#x42;</ResultExplanation>
        <Result> 000 </Result>
        <Empty/>
        <Allocations><Allocation><AllocationCode>x</AllocationCode></Allocation></Allocations>
        <TransToken>tok</TransToken>
      </API3G>`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(fieldOf(parsed.fields, 'Result')).toBe('000');
    expect(fieldOf(parsed.fields, 'result')).toBe('000');
    expect(fieldOf(parsed.fields, 'ResultExplanation')).toBe('Tom & <Jerry> & co AB');
    expect(fieldOf(parsed.fields, 'TransToken')).toBe('tok');
    expect(fieldOf(parsed.fields, 'Empty')).toBe('');
    expect(fieldOf(parsed.fields, 'Allocations')).toBeUndefined();
    expect(fieldOf(parsed.fields, 'AllocationCode')).toBeUndefined();
    expect(fieldOf(parsed.fields, 'Missing')).toBeUndefined();
  });

  it.each([
    ['', 'empty reply'],
    ['   ', 'empty reply'],
    ['<!DOCTYPE html><html><body>Down</body></html>', 'XML with a DOCTYPE is not taken'],
    ['<html><body>Down</body></html>', 'not an API3G XML document'],
    ['{"Result":"000"}', 'not an API3G XML document'],
    ['Result=000', 'not an API3G XML document'],
    ['<API3G/>', 'empty API3G element'],
    ['<API3G><Result>000</Result>', 'not an API3G XML document'],
    ['<API3G><Result>000</Result><Result>901</Result></API3G>', 'element Result appears twice'],
    ['<API3G><Result>000</API3G>', 'element Result is not closed'],
    ['<API3G>text<Result>000</Result></API3G>', 'not a well-formed API3G document'],
    ['<API3G><Result>0&00</Result></API3G>', 'element Result has a malformed entity'],
    ['<API3G><Result>&xxe;</Result></API3G>', 'element Result has a malformed entity'],
    [
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><API3G><Result>&x;</Result></API3G>',
      'XML with a DOCTYPE is not taken',
    ],
  ])('refuses %j: %s', (body, reason) => {
    expect(parseApi3g(body)).toEqual({ ok: false, reason });
  });

  it('refuses a body far larger than any reply', () => {
    expect(parseApi3g(`<API3G><Result>000</Result><X>${'a'.repeat(70_000)}</X></API3G>`)).toEqual({
      ok: false,
      reason: 'reply too large',
    });
  });

  it('an empty API3G with children but no Result still parses: the reader decides', () => {
    expect(parseApi3g('<API3G><ResultExplanation>x</ResultExplanation></API3G>')).toMatchObject({ ok: true });
  });
});
