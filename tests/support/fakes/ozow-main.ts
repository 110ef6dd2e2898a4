/**
 * Runs the fake Ozow alone, e.g. to point a local transaction-service at it:
 *   node scripts/ts-run.js tests/support/fakes/ozow-main.ts --port 8090 --site TSTSTE0001:<private key>:<api key>
 */
import { OzowFake } from './ozow-fake';
import type { FakeSite } from './ozow-fake-rules';

const HELP = `Usage: node scripts/ts-run.js tests/support/fakes/ozow-main.ts [options]

A fake Ozow (api.ozow.com) following the published API, on plain HTTP:
  POST /PostPaymentRequest                 a payment request (JSON, ApiKey header, HashCheck)
  GET  /{paymentRequestId}/Secure          the customer's page: choose Complete, Cancelled or Error
  GET  /GetTransactionByReference?siteCode=&transactionReference=&isTest=   (ApiKey header)
  GET  /GetTransaction?siteCode=&transactionId=&isTest=                     (ApiKey header)
  POST /token                              form grant_type=password&SiteCode= (ApiKey header)
  POST /secure/refunds/submit              refunds (Bearer token, hashCheck)

After a choice the browser posts the response variables to the SuccessUrl, CancelUrl or ErrorUrl
(an auto-submitting form) and the same variables, with Hash, are posted to the NotifyUrl.
Refunds are Complete (and notified to their notifyUrl) --refund-after-ms after submission.

Options:
  --port <n>                 port to listen on (default 8090; 0 for any free port)
  --host <address>           address to listen on (default 127.0.0.1)
  --site <code:privkey:apikey>  a site (repeatable; at least one)
  --retry-interval-ms <n>    between two tries of a notification (default 1000)
  --refund-after-ms <n>      refunds complete after this long (default 2000)
  --help                     this text
`;

function fail(message: string): never {
  process.stderr.write(`error: ${message}\nRun with --help for the options.\n`);
  process.exit(2);
}

const wholeNumber = (v: string, what: string) =>
  Number.isInteger(Number(v)) && Number(v) >= 0 ? Number(v) : fail(`${what} must be a whole number ≥ 0`);

function parseArgs(argv: string[]) {
  const out = { port: 8090, host: '127.0.0.1', sites: [] as FakeSite[], retryMs: 1000, refundMs: 2000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    }
    if (!['--port', '--host', '--site', '--retry-interval-ms', '--refund-after-ms'].includes(arg))
      fail(`unknown option ${arg}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) fail(`${arg} needs a value`);
    i++;
    if (arg === '--port')
      out.port = Number(value) < 65536 ? wholeNumber(value, '--port') : fail(`--port ${value} is not a port`);
    else if (arg === '--host') out.host = value;
    else if (arg === '--site') {
      const m = /^([\x21-\x39\x3b-\x7e]+):([\x21-\x39\x3b-\x7e]+):([\x21-\x39\x3b-\x7e]+)$/.exec(value);
      if (m === null) fail('--site must be <site code>:<private key>:<api key>');
      out.sites.push({ siteCode: m[1], privateKey: m[2], apiKey: m[3] });
    } else if (arg === '--retry-interval-ms') out.retryMs = wholeNumber(value, '--retry-interval-ms');
    else out.refundMs = wholeNumber(value, '--refund-after-ms');
  }
  if (out.sites.length === 0) fail('give at least one --site <site code>:<private key>:<api key>');
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const fake = await OzowFake.start(
    { sites: args.sites, notificationRetryMs: args.retryMs, refundSettleMs: args.refundMs },
    args.port,
    args.host,
  );
  process.stdout.write(
    `fake Ozow listening on ${fake.url} (OZOW_API_URL=${fake.url}); ` +
      `sites: ${args.sites.map((s) => s.siteCode).join(', ')}\n`,
  );
  const shutdown = () => void fake.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: Error) => fail(err.message));
