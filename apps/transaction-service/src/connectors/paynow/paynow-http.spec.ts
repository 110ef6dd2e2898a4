import { classifyFetchError, postForm } from './paynow-http';

function fetchFailed(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

describe('classifying what fetch throws', () => {
  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ENETUNREACH',
    'EHOSTUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
    'CERT_HAS_EXPIRED',
  ])('%s: never sent', (code) => {
    expect(classifyFetchError(fetchFailed(code), 1000)).toEqual({ sent: false, reason: `could not connect (${code})` });
  });

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_HEADERS_TIMEOUT'])('%s: may have been sent', (code) => {
    expect(classifyFetchError(fetchFailed(code), 1000)).toEqual({ sent: true, reason: `request failed (${code})` });
  });

  it('a timeout may have been sent', () => {
    expect(
      classifyFetchError(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 1500),
    ).toEqual({
      sent: true,
      reason: 'no complete reply within 1500 ms',
    });
  });

  it('an error without a code may have been sent', () => {
    expect(classifyFetchError(new TypeError('fetch failed'), 1000)).toEqual({ sent: true, reason: 'request failed' });
    expect(classifyFetchError('weird', 1000)).toEqual({ sent: true, reason: 'request failed' });
  });
});

describe('postForm', () => {
  it('posts the form without following redirects and reads the reply', async () => {
    const calls: Array<[string, RequestInit]> = [];
    const res = await postForm(
      async (url, init) => {
        calls.push([url, init]);
        return new Response('status=Ok', { status: 200 });
      },
      'https://paynow.test/interface/trace',
      'a=1',
      1000,
    );
    expect(res).toEqual({ kind: 'response', status: 200, body: 'status=Ok' });
    expect(calls[0][0]).toBe('https://paynow.test/interface/trace');
    expect(calls[0][1]).toMatchObject({
      method: 'POST',
      body: 'a=1',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    });
    expect(calls[0][1].signal).toBeInstanceOf(AbortSignal);
  });

  it('refuses a reply over 64 KiB as not an answer', async () => {
    const res = await postForm(async () => new Response('x'.repeat(70_000)), 'https://paynow.test/', '', 1000);
    expect(res).toEqual({ kind: 'failed', sent: true, reason: 'reply too large' });
  });

  it.each([
    ['not a url', 'invalid URL'],
    ['file:///etc/passwd', 'unsupported URL scheme'],
  ])('never sends to %p', async (url, reason) => {
    const res = await postForm(() => Promise.reject(new Error('must not be called')), url, '', 1000);
    expect(res).toEqual({ kind: 'failed', sent: false, reason });
  });

  it('a body that breaks off counts as sent', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('status=O'));
        controller.error(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
      },
    });
    const res = await postForm(async () => new Response(body), 'https://paynow.test/', '', 1000);
    expect(res).toEqual({ kind: 'failed', sent: true, reason: 'request failed (UND_ERR_SOCKET)' });
  });
});
