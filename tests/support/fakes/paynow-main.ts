/**
 * Runs the fake Paynow alone, e.g. to point a local transaction-service at it:
 *   node scripts/ts-run.js tests/support/fakes/paynow-main.ts --port 8089 \
 *     --integration 1201:3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977
 */
import { PaynowFake } from './paynow-fake';

const HELP = `Usage: node scripts/ts-run.js tests/support/fakes/paynow-main.ts [options]

A fake Paynow (www.paynow.co.zw) following the published protocol, on plain HTTP:
  POST /interface/initiatetransaction   web flow (answers a browserurl)
  POST /interface/remotetransaction     express checkout (ecocash, onemoney, innbucks, vmc/zimswitch tokens)
  POST /interface/trace                 status by merchanttrace
  GET|POST /Interface/CheckPayment/?guid=…   the poll URL
  GET /Payment/ConfirmPayment/{n}[?outcome=paid|cancelled|failed]   the customer's page

Test-mode numbers as documented: 0771111111 paid after 5 s, 0772222222 paid after 30 s,
0773333333 failed after 30 s, 0774444444 refused (Insufficient balance); the same with the vmc
tokens {11111111-1111-1111-1111-111111111111}… and the zimswitch tokens 1111…1111 (32 digits)….
Any other number stays Sent. Status updates are posted to the resulturl, up to 10 tries.

Options:
  --port <n>               port to listen on (default 8089; 0 for any free port)
  --host <address>         address to listen on (default 127.0.0.1)
  --integration <id:key>   an integration (repeatable; at least one)
  --time-scale <x>         multiply the test-mode delays (default 1, e.g. 0.1 for 0.5 s / 3 s)
  --retry-interval-ms <n>  between two tries of a status update (default 1000)
  --help                   this text
`;

function fail(message: string): never {
  process.stderr.write(`error: ${message}\nRun with --help for the options.\n`);
  process.exit(2);
}

function parseArgs(argv: string[]) {
  const out = {
    port: 8089,
    host: '127.0.0.1',
    integrations: [] as Array<{ id: string; key: string }>,
    timeScale: 1,
    retryMs: 1000,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    }
    if (!['--port', '--host', '--integration', '--time-scale', '--retry-interval-ms'].includes(arg))
      fail(`unknown option ${arg}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) fail(`${arg} needs a value`);
    i++;
    if (arg === '--port')
      out.port =
        Number.isInteger(Number(value)) && Number(value) >= 0 && Number(value) < 65536
          ? Number(value)
          : fail(`--port ${value} is not a port`);
    else if (arg === '--host') out.host = value;
    else if (arg === '--integration') {
      const m = /^(\d+):([0-9a-fA-F-]{36})$/.exec(value);
      if (m === null) fail('--integration must be <digits>:<uuid key>');
      out.integrations.push({ id: m[1], key: m[2].toLowerCase() });
    } else if (arg === '--time-scale')
      out.timeScale = Number(value) >= 0 ? Number(value) : fail('--time-scale must be a number ≥ 0');
    else
      out.retryMs =
        Number.isInteger(Number(value)) && Number(value) >= 0
          ? Number(value)
          : fail('--retry-interval-ms must be a whole number ≥ 0');
  }
  if (out.integrations.length === 0) fail('give at least one --integration <id:key>');
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const fake = await PaynowFake.start(
    { integrations: args.integrations, timeScale: args.timeScale, notificationRetryMs: args.retryMs },
    args.port,
    args.host,
  );
  process.stdout.write(
    `fake Paynow listening on ${fake.url} (PAYNOW_API_URL=${fake.url}); ` +
      `integrations: ${args.integrations.map((i) => i.id).join(', ')}\n`,
  );
  const shutdown = () => void fake.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: Error) => fail(err.message));
