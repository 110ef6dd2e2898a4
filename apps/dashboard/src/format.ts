/** Minor units → "12.34 USD", with each currency's own number of decimals. */
export function money(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    /* an unknown code: two decimals */
  }
  const major = (minor / 10 ** digits).toLocaleString('en', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${major} ${currency}`;
}

export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

/** Major units typed by a person ("12.5") → minor units (1250); null when it is not an amount. */
export function toMinor(text: string, currency: string): number | null {
  const digits = money(0, currency).split(' ')[0].split('.')[1]?.length ?? 0;
  // A currency without minor units (JPY) takes whole numbers only: `\d{1,0}` is not a pattern.
  const m = new RegExp(digits === 0 ? '^\\d+$' : `^\\d+(\\.\\d{1,${digits}})?$`).exec(text.trim());
  if (!m) return null;
  const [whole, frac = ''] = text.trim().split('.');
  return Number(whole) * 10 ** digits + Number(frac.padEnd(digits, '0') || '0');
}
