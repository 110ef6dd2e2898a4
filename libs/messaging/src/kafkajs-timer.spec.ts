import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs in a plain Node process (Jest's sandbox has its own `process` and timers): arms kafkajs'
 * pending-request timer unthrottled, then throttled by a broker, and prints the delays it set.
 */
function run(fix: boolean): { stderr: string; delays: (number | null)[]; fixed: boolean | null; rearmed: boolean } {
  const fixCall = `require(${JSON.stringify(join(__dirname, 'kafkajs-timer.ts'))}).fixKafkajsTimers()`;
  const script = `
    const fixed = ${fix ? fixCall : 'null'};
    const RequestQueue = require('kafkajs/src/network/requestQueue');
    const noop = () => undefined;
    const logger = { debug: noop, info: noop, warn: noop, error: noop };
    const delays = [];
    const queue = () => new RequestQueue({ instrumentationEmitter: { emit: noop }, maxInFlightRequests: 1,
      requestTimeout: 1000, enforceRequestTimeout: false, clientId: 'spec', broker: 'b',
      logger: { ...logger, namespace: () => logger } });
    const arm = (q) => {
      q.scheduleCheckPendingRequests();
      delays.push(q.throttleCheckTimeoutId ? q.throttleCheckTimeoutId._idleTimeout : null);
      clearTimeout(q.throttleCheckTimeoutId);
      q.throttleCheckTimeoutId = null;
    };
    const idle = queue();
    arm(idle); // nothing throttled, nothing pending
    const waiting = queue();
    waiting.pending.push({});
    arm(waiting); // nothing throttled, a request pending
    const throttled = queue();
    throttled.throttledUntil = Date.now() + 5000;
    throttled.pending.push({});
    arm(throttled); // throttled, a request pending
    // An idle queue after a check (as after each broker answer): does it arm a timer to check again?
    const quiet = queue();
    quiet.checkPendingRequests();
    const rearmed = quiet.throttleCheckTimeoutId !== null;
    quiet.destroy();
    console.log(JSON.stringify({ delays, fixed, rearmed }));
  `;
  const child = spawnSync(process.execPath, ['-e', script], {
    cwd: join(__dirname, '..', '..', '..'),
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return { stderr: child.stderr, ...JSON.parse(child.stdout) };
}

describe('fixKafkajsTimers', () => {
  it('without it, kafkajs makes Node warn about a negative timer', () => {
    expect(run(false).stderr).toMatch(/TimeoutNegativeWarning: -\d+ is a negative number/);
  });

  it('kafkajs arms no negative timer, none while no request waits; a waiting request waits as long as before', () => {
    const before = run(false);
    const after = run(true);
    expect(after.fixed).toBe(true);
    expect(after.stderr).toBe('');
    // Unthrottled: kafkajs arms 1 ms (Node's clamp of its negative delay) with nothing pending, and
    // 10 ms with a request pending; corrected, nothing with nothing pending, and the same 10 ms.
    expect(before.delays.slice(0, 2)).toEqual([1, 10]);
    expect(after.delays.slice(0, 2)).toEqual([null, 10]);
    // An idle queue: kafkajs re-arms its check after every check (a 1 ms loop); corrected, it does not.
    expect(before.rearmed).toBe(true);
    expect(after.rearmed).toBe(false);
    // Throttled by a broker for 5 s: until then, less the few ms the script took to get there.
    for (const { delays } of [before, after]) {
      expect(delays[2]).toBeGreaterThan(4000);
      expect(delays[2]).toBeLessThanOrEqual(5000);
    }
  });
});

/**
 * In a plain Node process: a request queue whose connection is up, as kafkajs' connect leaves it, with and without the
 * fix. Prints the request-timeout timer armed while idle, while a request is in flight, and once it has timed out.
 */
function runTimeouts(fix: boolean): {
  idle: number | null;
  inFlight: number | null;
  after: number | null;
  error: string;
  waited: number;
} {
  const fixCall = `require(${JSON.stringify(join(__dirname, 'kafkajs-timer.ts'))}).fixKafkajsTimers()`;
  const script = `
    ${fix ? fixCall : ''};
    const RequestQueue = require('kafkajs/src/network/requestQueue');
    const noop = () => undefined;
    const logger = { debug: noop, info: noop, warn: noop, error: noop };
    const q = new RequestQueue({ instrumentationEmitter: { emit: noop }, maxInFlightRequests: 5,
      requestTimeout: 300, enforceRequestTimeout: true, clientId: 'spec', broker: 'b',
      logger: { ...logger, namespace: () => logger } });
    const armed = () => (q.requestTimeoutIntervalId ? q.requestTimeoutIntervalId._idleTimeout : null);
    q.scheduleRequestTimeoutCheck(); // what kafkajs does once the connection is up
    const idle = armed();
    const failed = new Promise((resolve) => q.push({
      entry: { correlationId: 1, apiKey: 1, apiName: 'Fetch', apiVersion: 11, resolve: noop, reject: resolve },
      expectResponse: true, sendRequest: noop,
    }));
    const inFlight = armed();
    const sent = Date.now();
    failed.then((err) => {
      console.log(JSON.stringify({ idle, inFlight, after: armed(), error: err.name, waited: Date.now() - sent }));
      q.destroy();
    });
  `;
  const child = spawnSync(process.execPath, ['-e', script], {
    cwd: join(__dirname, '..', '..', '..'),
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout);
}

describe('fixKafkajsTimers: the request timeout', () => {
  it('arms no timer while nothing is in flight, and times a request out at its deadline as kafkajs does', () => {
    const before = runTimeouts(false);
    const after = runTimeouts(true);
    // kafkajs: a 100 ms interval (at most) from connect on, whatever is in flight.
    expect([before.idle, before.inFlight, before.after]).toEqual([100, 100, 100]);
    // Fixed: nothing while idle, one timer for the request's deadline (its 300 ms, and the 1 ms past it at which the
    // check finds it overdue), none once it timed out.
    expect(after.idle).toBeNull();
    expect(after.inFlight).toBeGreaterThan(290);
    expect(after.inFlight).toBeLessThanOrEqual(301);
    expect(after.after).toBeNull();
    expect([before.error, after.error]).toEqual(['KafkaJSRequestTimeoutError', 'KafkaJSRequestTimeoutError']);
    // Not before its 300 ms had passed (when after them is the timer's, armed for the deadline, as checked above).
    expect(after.waited).toBeGreaterThanOrEqual(300);
  });
});
