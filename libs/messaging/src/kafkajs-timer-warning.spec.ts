import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs in a plain Node process: Jest's sandbox has its own `process` and timers. */
function warningsPrinted(install: boolean): string {
  const script = `
    ${install ? `require(${JSON.stringify(join(__dirname, 'kafkajs-timer-warning.ts'))}).dropKafkajsNegativeTimerWarning();` : ''}
    const RequestQueue = require('kafkajs/src/network/requestQueue');
    const noop = () => undefined;
    const logger = { debug: noop, info: noop, warn: noop, error: noop };
    const queue = new RequestQueue({ instrumentationEmitter: { emit: noop }, maxInFlightRequests: 1, requestTimeout: 1000,
      enforceRequestTimeout: false, clientId: 'spec', broker: 'b', logger: { ...logger, namespace: () => logger } });
    queue.scheduleCheckPendingRequests(); // nothing throttled: kafkajs arms a negative timer
    clearTimeout(queue.throttleCheckTimeoutId);
    process.emitWarning('something else', 'DeprecationWarning');
  `;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..', '..'), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stderr;
}

describe('dropKafkajsNegativeTimerWarning', () => {
  it('without it, kafkajs makes Node warn about a negative timer', () => {
    expect(warningsPrinted(false)).toMatch(/TimeoutNegativeWarning: -\d+ is a negative number/);
  });

  it("drops only kafkajs' negative-timer warning; every other warning is still printed", () => {
    const stderr = warningsPrinted(true);
    expect(stderr).not.toContain('TimeoutNegativeWarning');
    expect(stderr).toContain('DeprecationWarning: something else');
  });
});
