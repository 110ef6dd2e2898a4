/** Values the request-validation cases try on fields of several endpoints (request-endpoints.ts). */
export const UUID = '0b6f8d3e-4c1a-4b8e-9f2a-1d2c3b4a5e6f';
export const LINK = 'plink_AbCdEf0123';
export const TXN = 'txn_AbC123';
export const DLV = `dlv_${'a'.repeat(32)}`;
export const INV = 'INV-20250101-1-2-USD-TEST-1';
export const TIMES = [
  '2025-01-31T12:00:00Z',
  '2025-01-31T12:00:00.123+02:00',
  '2025-02-30T00:00:00Z',
  '2025-01-31',
  '0000-01-01T00:00:00Z',
  '1738324800',
  '253402300800',
  '-5',
  '2025-01-31T12:00:00',
];
export const DATES = [
  '2025-01-31',
  '2024-02-29',
  '2025-02-30',
  '0000-01-01',
  '9999-12-31',
  '2025-1-1',
  '2025-01-31T00:00:00Z',
];
export const URLS = [
  'https://shop.example/ok',
  'http://localhost:3000/x',
  'ftp://shop.example',
  'shop.example',
  'https://',
  'http://shop',
  'javascript:alert(1)',
  'https://a b.example',
];
export const EMAILS = ['a@b.co', 'payer@example.com', 'a@b', 'not-an-email', '@b.co', 'a b@c.co', 'ä@b.co'];
export const LIMITS = [
  '1',
  '100',
  '101',
  '500',
  '501',
  '1000',
  '1001',
  '0',
  '',
  ' 5 ',
  '0x10',
  '1e2',
  '5.0',
  '-0',
  'Infinity',
  '1_0',
  ['1', '2'],
  ['5'],
];
export const SKIPS = ['0', '', '2147483647', '2147483648', '-1', '1e300', ' ', ['0', '1']];
export const cursor = (good: string) => [good, good.toUpperCase(), `${good}x`, 'x', ['a', 'b'], [good, good]];
export const page = (good: string, limits = LIMITS) => ({
  starting_after: cursor(good),
  ending_before: cursor(good),
  limit: limits,
});
export const CREATED = { 'created[gte]': TIMES, 'created[gt]': TIMES, 'created[lte]': TIMES, 'created[lt]': TIMES };
export const METADATA = [
  { a: '1' },
  { a: 1 },
  { '': 'x' },
  { 'a[b]': 'x' },
  { ['k'.repeat(41)]: 'x', n: 2 },
  { a: 'x'.repeat(501) },
  { a: null },
  { a: {} },
  '',
  'x',
  [],
  null,
];
export const DESCRIPTIONS = [
  '',
  'd',
  'd'.repeat(1000),
  'd'.repeat(1001),
  '\u2764\uFE0F'.repeat(600),
  '😀'.repeat(1000),
  null,
  5,
];
export const REFERENCES = ['ref-1', 'a'.repeat(100), 'a'.repeat(101), 'a b', 'é', 'a:b.c_d-e'];
