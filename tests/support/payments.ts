import type { ApiResponse, Stack } from './stack';
import { waitFor } from './wait';

type Body = Record<string, unknown>;
type Api = Pick<Stack, 'api'>;

/**
 * A test-mode EcoCash payment the sandbox settles to success on its own, with `fields` over the
 * defaults (amount, email, currency, method).
 */
export function sandboxPayment(reference: string, fields: Body = {}): Body {
  return {
    amount: 1000,
    email: 'buyer@example.com',
    currency: 'USD',
    payment_method_code: 'ecocash',
    mobile_money_number: '0771234567',
    requested_response: 'success',
    transaction_reference: reference,
    ...fields,
  };
}

/** POST /v1/transactions of a sandbox payment; expects 200 and answers the response. */
export async function startPayment(
  stack: Api,
  key: string,
  reference: string,
  fields: Body = {},
): Promise<ApiResponse> {
  const res = await stack.api('POST', '/v1/transactions', { key, body: sandboxPayment(reference, fields) });
  expect({ reference, status: res.status, body: res.body }).toMatchObject({ reference, status: 200 });
  return res;
}

/** Polls verify until the payment is `status` (success by default); answers the verified transaction. */
export function settled(
  stack: Api,
  key: string,
  reference: string,
  { status = 'success', timeoutMs = 30_000 } = {},
): Promise<Body> {
  return waitFor(
    `${reference} to be ${status}`,
    async () => {
      const res = await stack.api('GET', `/v1/transactions/verify?reference=${encodeURIComponent(reference)}`, { key });
      return res.body.status === status ? res.body : undefined;
    },
    { timeoutMs },
  );
}

/** Starts a sandbox payment and waits until it succeeds; answers the initialize response's body. */
export async function payAndSettle(stack: Api, key: string, reference: string, fields: Body = {}): Promise<Body> {
  const res = await startPayment(stack, key, reference, fields);
  await settled(stack, key, reference);
  return res.body;
}
