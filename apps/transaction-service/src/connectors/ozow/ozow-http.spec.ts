import { parseJson, send } from './ozow-http';

function fetchFailed(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

describe('Ozow HTTP', () => {
  it('sends method, headers and body without following redirects, and reads the reply', async () => {
    const calls: Array<[string, RequestInit]> = [];
    const res = await send(
      async (url, init) => {
        calls.push([url, init]);
        return new Response('{"a":1}', { status: 200 });
      },
      { method: 'POST', url: 'https://api.ozow.test/PostPaymentRequest', headers: { ApiKey: 'k' }, body: '{}' },
      1000,
    );
    expect(res).toEqual({ kind: 'response', status: 200, body: '{"a":1}' });
    expect(calls[0][0]).toBe('https://api.ozow.test/PostPaymentRequest');
    expect(calls[0][1]).toMatchObject({ method: 'POST', body: '{}', headers: { ApiKey: 'k' }, redirect: 'manual' });
  });

  it('a refused connection was never sent; a reset or a timeout may have been', async () => {
    const req = { method: 'GET' as const, url: 'https://api.ozow.test/x', headers: {} };
    expect(await send(async () => Promise.reject(fetchFailed('ECONNREFUSED')), req, 1000)).toEqual({
      kind: 'failed',
      sent: false,
      reason: 'could not connect (ECONNREFUSED)',
    });
    expect(await send(async () => Promise.reject(fetchFailed('ENOTFOUND')), req, 1000)).toMatchObject({
      kind: 'failed',
      sent: false,
    });
    expect(await send(async () => Promise.reject(fetchFailed('ECONNRESET')), req, 1000)).toEqual({
      kind: 'failed',
      sent: true,
      reason: 'request failed (ECONNRESET)',
    });
    const timeout = new DOMException('timed out', 'TimeoutError');
    expect(await send(async () => Promise.reject(timeout), req, 700)).toEqual({
      kind: 'failed',
      sent: true,
      reason: 'no complete reply within 700 ms',
    });
  });

  it('refuses a reply over 64 KiB and URLs that are not http(s)', async () => {
    const big = 'x'.repeat(65 * 1024);
    expect(
      await send(async () => new Response(big), { method: 'GET', url: 'https://a.test/', headers: {} }, 1000),
    ).toEqual({ kind: 'failed', sent: true, reason: 'reply too large' });
    expect(
      await send(async () => new Response(''), { method: 'GET', url: 'ftp://a.test/', headers: {} }, 1000),
    ).toEqual({ kind: 'failed', sent: false, reason: 'unsupported URL scheme' });
    expect(await send(async () => new Response(''), { method: 'GET', url: 'not a url', headers: {} }, 1000)).toEqual({
      kind: 'failed',
      sent: false,
      reason: 'invalid URL',
    });
  });

  it('parses JSON without throwing', () => {
    expect(parseJson('[1]')).toEqual([1]);
    expect(parseJson('<html>')).toBeUndefined();
  });
});
