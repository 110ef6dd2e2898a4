import { randomUUID } from 'node:crypto';
import { Stack } from '../support/stack';

/** Prometheus metrics are served on the internal METRICS_PORT only, with a bounded set of series. */
describe('gateway metrics', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start(['gateway']);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('are not served on the public port', async () => {
    const res = await stack.api('GET', '/metrics');
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('process_cpu');
  });

  it('are served on METRICS_PORT', async () => {
    const res = await fetch(stack.metricsUrl('gateway'));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('process_cpu_user_seconds_total');
    expect((await fetch(stack.metricsUrl('gateway').replace('/metrics', '/health/ready'))).status).toBe(404);
  });

  it('count every unmatched path under one label value', async () => {
    const invented = Array.from({ length: 5 }, () => `/probe-${randomUUID()}`);
    for (const path of invented) expect((await stack.api('GET', path)).status).toBe(404);
    await stack.api('POST', `/v1/${randomUUID()}`, {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    const text = await (await fetch(stack.metricsUrl('gateway'))).text();
    for (const path of invented) expect(text).not.toContain(path);
    const unmatched = text
      .split('\n')
      .find(
        (l) =>
          l.startsWith('http_request_duration_seconds_count{') &&
          l.includes('route="unmatched"') &&
          l.includes('status="404"'),
      );
    expect(Number(unmatched?.split(' ').pop())).toBeGreaterThanOrEqual(invented.length);
    expect(text).not.toMatch(/route="\/v1\/[0-9a-f-]{36}"/);
  });
});
