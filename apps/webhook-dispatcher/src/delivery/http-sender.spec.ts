import type { WebhookDispatcherConfig } from '../config/webhook.config';
import { ForbiddenTargetError, HttpSender } from './http-sender';

const sender = (allowPrivate: boolean) =>
  new HttpSender({ WEBHOOK_CA_FILE: '', WEBHOOK_ALLOW_PRIVATE_TARGETS: allowPrivate, WEBHOOK_TIMEOUT_MS: 1000 } as WebhookDispatcherConfig);

describe('HttpSender target checks', () => {
  it('refuses names and literals that resolve to loopback or private addresses', async () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]', '10.1.2.3', '169.254.169.254']) {
      await expect(sender(false).resolveTarget(host)).rejects.toBeInstanceOf(ForbiddenTargetError);
    }
  });

  it('allows them when WEBHOOK_ALLOW_PRIVATE_TARGETS is on (development and tests)', async () => {
    await expect(sender(true).resolveTarget('127.0.0.1')).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('does not connect to a refused target: the attempt fails with the reason', async () => {
    const result = await sender(false).send('https://127.0.0.1:9/hook', {}, '{}');
    expect(result.statusCode).toBeNull();
    expect(result.error).toContain('private or reserved');
  });
});
