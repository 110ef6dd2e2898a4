import { join } from 'node:path';
import { ROOT } from '../support/infra';
import { ALL_APPS, Stack } from '../support/stack';

/**
 * TypeORM only runs migrations: the migration Job loads it, a serving process (which does not migrate) must not, since
 * loading it costs every process ~11 MB. TypeBox and the response and webhook schemas built with it serve the gateway's
 * OpenAPI document only: the other services never load them. Checked on the built apps.
 */
describe('what a serving process loads', () => {
  const probe = { NODE_OPTIONS: `--require ${join(ROOT, 'tests', 'support', 'loaded-modules.js')}` };
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start(ALL_APPS, probe, { migrationJobs: true });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('loads TypeORM in the migration Job and never in a serving process', async () => {
    // The Job of an already migrated database still loads TypeORM to check: the probe can say true.
    expect(await stack.migrate('transaction-service')).toContain('[loaded-modules] typeorm=true');

    // Serving does database work (a business and its keys, in a transaction) without it too.
    const keys = await stack.createBusiness('Footprint');
    expect(keys.test.secret).toEqual(expect.any(String));
    for (const app of ALL_APPS) {
      const proc = stack.app(app);
      expect(await proc.stop()).toBe(0);
      expect(proc.output).toContain('[loaded-modules] typeorm=false');
      // The gateway builds its OpenAPI document (and so its schemas) at start-up.
      expect(proc.output).toContain(`[loaded-modules] typebox=${app === 'gateway'}`);
    }
  }, 120_000);
});
