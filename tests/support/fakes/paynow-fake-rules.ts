import { type WireFields, twoDecimals, wireGet, wireHash } from './paynow-fake-wire';

/**
 * What the fake checks of an initiate or trace request, and the test-mode scenarios
 * (docs "Test Mode"). Error texts marked (documented) are Paynow's own; the others are the fake's
 * wording for a refusal the docs describe without quoting.
 */

export interface FakeIntegration {
  id: string;
  key: string;
}

/**
 * What a test-mode number or token does: the status it reaches and after how long (ms, before timeScale), or an
 * immediate refusal.
 */
export type Scenario =
  { kind: 'settle'; status: 'Paid' | 'Failed'; afterMs: number } | { kind: 'refuse'; error: string };

const SUCCESS: Scenario = { kind: 'settle', status: 'Paid', afterMs: 5_000 };
const DELAYED: Scenario = { kind: 'settle', status: 'Paid', afterMs: 30_000 };
const CANCELLED: Scenario = { kind: 'settle', status: 'Failed', afterMs: 30_000 };
const INSUFFICIENT: Scenario = { kind: 'refuse', error: 'Insufficient balance' }; // (documented)

/** Mobile money (ecocash, onemoney) test numbers; the same scheme for vmc and zimswitch tokens. */
export const TEST_SCENARIOS: Readonly<Record<string, Scenario>> = {
  '0771111111': SUCCESS,
  '0772222222': DELAYED,
  '0773333333': CANCELLED,
  '0774444444': INSUFFICIENT,
  '{11111111-1111-1111-1111-111111111111}': SUCCESS,
  '{22222222-2222-2222-2222-222222222222}': DELAYED,
  '{33333333-3333-3333-3333-333333333333}': CANCELLED,
  '{44444444-4444-4444-4444-444444444444}': INSUFFICIENT,
  '11111111111111111111111111111111': SUCCESS,
  '22222222222222222222222222222222': DELAYED,
  '33333333333333333333333333333333': CANCELLED,
  '44444444444444444444444444444444': INSUFFICIENT,
};

export const EXPRESS_METHODS = ['ecocash', 'onemoney', 'innbucks', 'vmc', 'zimswitch'];
const WALLETS = ['ecocash', 'onemoney', 'innbucks'];

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** The integration a request names, and its hash checked over the values in RECEIVED order. */
export function checkSigned(
  fields: WireFields,
  integrations: ReadonlyMap<string, FakeIntegration>,
): Checked<FakeIntegration> {
  const integration = integrations.get((wireGet(fields, 'id') ?? '').trim());
  if (integration === undefined) return { ok: false, error: 'Invalid id.' }; // (the SDKs' RESPONSE_INVALID_ID)
  const expected = wireHash(fields, integration.key);
  if ((wireGet(fields, 'hash') ?? '').toUpperCase() !== expected) {
    // What Paynow answers (seen in paynow/Paynow-NodeJS-SDK issue #36), two spaces included.
    return { ok: false, error: `Invalid Hash.  Hash should start with: ${expected.slice(0, 6)}` };
  }
  if ((wireGet(fields, 'status') ?? '').toLowerCase() !== 'message') return { ok: false, error: 'Invalid status' };
  return { ok: true, value: integration };
}

export interface InitiateFields {
  reference: string;
  amount: string;
  resultUrl: string;
  returnUrl: string;
  method: string | null;
  phone: string | null;
  token: string | null;
  merchantTrace: string | null;
  scenario: Scenario | null;
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** The fields of an initiate request; `express` for /interface/remotetransaction. */
export function checkInitiate(
  fields: WireFields,
  express: boolean,
  traceTaken: (trace: string) => boolean,
): Checked<InitiateFields> {
  const get = (k: string) => (wireGet(fields, k) ?? '').trim();
  const amount = twoDecimals(get('amount'));
  if (amount === null) return { ok: false, error: 'Invalid amount field' }; // (documented)
  if (get('reference') === '') return { ok: false, error: 'Invalid reference' };
  if (!isHttpUrl(get('resulturl'))) return { ok: false, error: 'Invalid resulturl' };
  const trace = get('merchanttrace') || null;
  if (trace !== null && trace.length > 32) return { ok: false, error: 'Invalid merchanttrace' };
  if (trace !== null && traceTaken(trace)) return { ok: false, error: 'Duplicate merchanttrace' };
  const method = express ? get('method').toLowerCase() : null;
  const phone = get('phone') || null;
  const token = get('token') || null;
  if (express) {
    if (!EXPRESS_METHODS.includes(method as string)) return { ok: false, error: 'Invalid method' };
    // required for express checkout
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(get('authemail'))) return { ok: false, error: 'Invalid authemail' };
    if (WALLETS.includes(method as string) && phone === null) return { ok: false, error: 'Invalid phone' };
    if (!WALLETS.includes(method as string) && token === null) return { ok: false, error: 'Invalid token' };
    // required for token payments
    if (!WALLETS.includes(method as string) && trace === null) return { ok: false, error: 'Invalid merchanttrace' };
  }
  const key = express ? (WALLETS.includes(method as string) ? phone : token) : null;
  const scenario =
    key !== null && Object.prototype.hasOwnProperty.call(TEST_SCENARIOS, key) ? TEST_SCENARIOS[key] : null;
  if (scenario?.kind === 'refuse') return { ok: false, error: scenario.error };
  return {
    ok: true,
    value: {
      reference: get('reference'),
      amount,
      resultUrl: get('resulturl'),
      returnUrl: get('returnurl'),
      method,
      phone,
      token,
      merchantTrace: trace,
      scenario,
    },
  };
}
