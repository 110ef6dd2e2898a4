import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/infra';
import { Stack } from '../support/stack';

/**
 * The fuzz stage: schemathesis (pinned in scripts/fuzz/venv.sh) sends valid, invalid and stateful
 * (link-following) requests to every operation of the gateway's /docs/openapi.json; the run fails on
 * any 5xx and on any documented answer whose body the (closed) schema rejects. A secret key and the
 * admin token get the requests past authentication to the code behind it.
 */
const EXAMPLES_PER_OPERATION = 50;
const RUN_TIMEOUT_MS = 240_000;
/** Room for one more run when the fuzzer itself crashed. */
const TEST_TIMEOUT_MS = 2 * RUN_TIMEOUT_MS + 10_000;
const WORK_DIR = join(ROOT, '.local', 'fuzz');

interface FuzzRun {
  exitCode: number | null;
  output: string;
}

/** Runs schemathesis; its whole report is also kept in .local/fuzz/<name>.log. */
function schemathesis(name: string, bin: string, args: string[]): Promise<FuzzRun> {
  return new Promise((resolve, reject) => {
    // Only what Python needs: the key and token go in arguments, and no other secret leaks into its environment.
    const child = spawn(bin, args, {
      cwd: WORK_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? WORK_DIR, LANG: 'C.UTF-8', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      writeFileSync(join(WORK_DIR, `${name}.log`), output);
      resolve({ exitCode: code, output });
    });
  });
}

/** The lines of a run's report that name a failed check (ST101 is "server error"). */
const failures = (run: FuzzRun) => run.output.split('\n').filter((l) => /ST\d{3}|Server error|❌/.test(l));
/** What a failing run says (its report ends with the failures, the seed and the summary). */
const verdict = (run: FuzzRun) => ({
  exitCode: run.exitCode,
  failures: failures(run),
  ...(run.exitCode === 0 ? {} : { report: run.output.split('\n').slice(-60).join('\n') }),
});
const selected = (run: FuzzRun) => Number(/Selected:\s+(\d+)\//.exec(run.output)?.[1] ?? NaN);
/**
 * The fuzzer itself crashed (a Python traceback, e.g. CPython 3.11's "AST constructor recursion
 * depth mismatch" inside hypothesis) without any check failing: nothing was learnt about the API.
 */
const crashedInFuzzer = (run: FuzzRun) =>
  run.exitCode !== 0 &&
  failures(run).length === 0 &&
  /Runtime Error|Traceback \(most recent call last\)/.test(run.output);

/** One run; a run the fuzzer itself crashed is run once more (a failed check never is). */
async function fuzz(name: string, bin: string, args: string[]): Promise<FuzzRun> {
  const run = await schemathesis(name, bin, args);
  return crashedInFuzzer(run) ? schemathesis(`${name}-again`, bin, args) : run;
}

describe('API fuzzing (schemathesis): no input gives a server error or an undocumented answer', () => {
  let stack: Stack;
  let bin: string;
  let secretKey: string;

  beforeAll(async () => {
    mkdirSync(WORK_DIR, { recursive: true });
    const venv = await promisify(execFile)('bash', [join(ROOT, 'scripts', 'fuzz', 'venv.sh')], {
      cwd: ROOT,
      timeout: 300_000,
    });
    bin = venv.stdout.trim().split('\n').pop()!;
    // Thousands of requests in a minute: a rate limit would answer 429 and leave the code behind it untested.
    stack = await Stack.start(undefined, { RATE_LIMIT_PER_SECOND: '5000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const merchant = await stack.createBusiness('Fuzz Merchant');
    await stack.createBusiness('Fuzz Partner');
    secretKey = merchant.test.secret;
  }, 420_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const common = () => [
    'run',
    `${stack.gatewayUrl}/docs/openapi.json`,
    '--checks',
    'not_a_server_error,response_schema_conformance',
    '--max-examples',
    String(EXAMPLES_PER_OPERATION),
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--workers',
    '2',
    '--generation-database',
    'none',
    '--no-color',
  ];

  it(
    'no 5xx, only documented bodies, for any generated secret-key request to every merchant operation',
    async () => {
      const run = await fuzz('merchant', bin, [
        ...common(),
        '--header',
        `Authorization: Bearer ${secretKey}`,
        '--exclude-path-regex',
        '^/admin/',
      ]);
      expect(verdict(run)).toEqual({ exitCode: 0, failures: [] });
      expect(selected(run)).toBeGreaterThan(25);
      expect(run.output).toMatch(/Stateful \(in [\d.]+s\)/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'answers no 5xx, and only documented bodies, to any generated request on the admin operations',
    async () => {
      const run = await fuzz('admin', bin, [
        ...common(),
        '--header',
        `Authorization: Bearer ${stack.adminToken}`,
        '--include-path-regex',
        '^/admin/',
      ]);
      expect(verdict(run)).toEqual({ exitCode: 0, failures: [] });
      expect(selected(run)).toBeGreaterThanOrEqual(5);
    },
    TEST_TIMEOUT_MS,
  );

  it('logged no unhandled error in any service meanwhile', () => {
    for (const [app, proc] of stack.processes) {
      const unhandled = proc.output.split('\n').filter((l) => /unhandled error|RPC handler failed/.test(l));
      expect({ app, unhandled }).toEqual({ app, unhandled: [] });
    }
  });
});
