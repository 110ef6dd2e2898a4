import { postXml } from './dpo-http';

function fetchFailed(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

describe('postXml', () => {
  it('posts the document as application/xml, without following redirects, and reads the reply', async () => {
    const calls: Array<[string, RequestInit]> = [];
    const res = await postXml(
      async (url, init) => (calls.push([url, init]), new Response('<API3G/>', { status: 302 })),
      'https://dpo.test/API/v6/',
      '<API3G/>',
      1000,
    );
    expect(res).toEqual({ kind: 'response', status: 302, body: '<API3G/>' });
    expect(calls[0][0]).toBe('https://dpo.test/API/v6/');
    expect(calls[0][1]).toMatchObject({ method: 'POST', body: '<API3G/>', redirect: 'manual' });
    expect((calls[0][1].headers as Record<string, string>)['content-type']).toBe('application/xml; charset=utf-8');
  });

  it('a refused connection was never sent; a reset may have been', async () => {
    expect(await postXml(() => Promise.reject(fetchFailed('ECONNREFUSED')), 'https://dpo.test/', '', 1000)).toEqual({
      kind: 'failed',
      sent: false,
      reason: 'could not connect (ECONNREFUSED)',
    });
    expect(await postXml(() => Promise.reject(fetchFailed('ENOTFOUND')), 'https://dpo.test/', '', 1000)).toMatchObject({
      kind: 'failed',
      sent: false,
    });
    expect(await postXml(() => Promise.reject(fetchFailed('ECONNRESET')), 'https://dpo.test/', '', 1000)).toEqual({
      kind: 'failed',
      sent: true,
      reason: 'request failed (ECONNRESET)',
    });
  });

  it('times out with sent: true', async () => {
    const hang = (_url: string, init: RequestInit) =>
      new Promise<Response>((_r, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    expect(await postXml(hang, 'https://dpo.test/', '', 50)).toEqual({
      kind: 'failed',
      sent: true,
      reason: 'no complete reply within 50 ms',
    });
  });

  it('refuses a reply that is far too large, and URLs that are not http(s)', async () => {
    expect(await postXml(async () => new Response('x'.repeat(300_000)), 'https://dpo.test/', '', 1000)).toEqual({
      kind: 'failed',
      sent: true,
      reason: 'reply too large',
    });
    expect(await postXml(async () => new Response(''), 'ftp://dpo.test/', '', 1000)).toEqual({
      kind: 'failed',
      sent: false,
      reason: 'unsupported URL scheme',
    });
    expect(await postXml(async () => new Response(''), 'not a url', '', 1000)).toEqual({
      kind: 'failed',
      sent: false,
      reason: 'invalid URL',
    });
  });

  it('a body that breaks off midway may have been sent', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('<API3G>'));
        controller.error(fetchFailed('ECONNRESET'));
      },
    });
    expect(await postXml(async () => new Response(broken), 'https://dpo.test/', '', 1000)).toEqual({
      kind: 'failed',
      sent: true,
      reason: 'request failed (ECONNRESET)',
    });
  });
});
