/**
 * The API's error model as a client sees it: the status, a body `{ result: 'error', code,
 * message, request_id }`, and that request id echoed in X-Request-Id.
 */
export function expectError(
  res: { status: number; body: unknown; headers: Headers },
  status: number,
  code: string,
): void {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status,
    body: { result: 'error', code, message: expect.any(String), request_id: expect.stringMatching(/^req_/) },
  });
  expect(res.headers.get('x-request-id')).toBe((res.body as { request_id: string }).request_id);
}
