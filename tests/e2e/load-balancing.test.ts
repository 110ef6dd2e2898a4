import { freePort, startApp, type AppProcess } from '../support/processes';
import { Stack } from '../support/stack';

/** The gateway spreads RPC requests over every address of a service and skips one that is gone. */
describe('RPC load balancing', () => {
  let stack: Stack;
  let second: AppProcess;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;

  const served = async (proc: AppProcess) => {
    const text = await (await fetch(proc.url('/metrics'))).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('rpc_request_duration_seconds_count{') && l.includes('pattern="transactions.verify"'));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  beforeAll(async () => {
    stack = await Stack.start(['transaction-service']);
    const [rpc, http] = [await freePort(), await freePort()];
    second = startApp(
      'transaction-service',
      { ...stack.envFor('transaction-service'), RPC_PORT: String(rpc), HTTP_PORT: String(http) },
      http,
    );
    await second.waitReady();
    await stack.startApp('gateway', {
      TRANSACTION_SERVICE_ADDRS: `127.0.0.1:${stack.rpcPort('transaction-service')},127.0.0.1:${rpc}`,
    });
    keys = await stack.createBusiness('Balanced');
  }, 120_000);

  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  }, 120_000);

  it('sends requests to both instances, and keeps answering when one stops', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await stack.api('GET', `/v1/transactions/verify?reference=nothing-${i}`, { key: keys.test.secret });
      expect(res.status).toBe(404);
    }
    const first = stack.app('transaction-service');
    expect(await served(first)).toBeGreaterThanOrEqual(3);
    expect(await served(second)).toBeGreaterThanOrEqual(3);

    await first.stop();
    for (let i = 0; i < 10; i++) {
      const res = await stack.api('GET', `/v1/transactions/verify?reference=after-${i}`, { key: keys.test.secret });
      expect(res.status).toBe(404); // answered by the remaining instance, never 503
    }
  }, 60_000);
});
