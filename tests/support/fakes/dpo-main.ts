/**
 * Runs the fake DPO Pay alone, e.g. to point a local transaction-service at it:
 *   node scripts/ts-run.js tests/support/fakes/dpo-main.ts --port 8090 \
 *     --company 9F416C11-127B-4DE2-AC7F-D5710E4C5E0A --push-url http://localhost:3000/v1/provider-notifications/dpo
 */
import { DECLINING_CARD, DpoFake, PAYING_CARD } from './dpo-fake';

const HELP = `Usage: node scripts/ts-run.js tests/support/fakes/dpo-main.ts [options]

A fake DPO Pay (3G Direct Pay API v6) following the published protocol, on plain HTTP:
  POST /API/v6/            API3G XML; <Request> createToken | verifyToken | refundToken | cancelToken
  GET  /payv2.php?ID=…     the payment page (a card form and a cancel button)
  POST /payv2.php          the customer's submission: ID, action=pay|cancel, card

Card ${PAYING_CARD} pays (redirect to RedirectURL with TransID, CCDapproval, PnrID,
TransactionToken, CompanyRef, then a push); card ${DECLINING_CARD} is declined (verifyToken 901);
cancel goes back to BackURL with TransactionToken and CompanyRef (verifyToken 904).

Options:
  --port <n>               port to listen on (default 8090; 0 for any free port)
  --host <address>         address to listen on (default 127.0.0.1)
  --company <token>        a company token the fake knows (repeatable; at least one)
  --push-url <url>         where pushes go after each successful payment (default: none)
  --retry-interval-ms <n>  between two tries of a push (default 1000)
  --help                   this text
`;

function fail(message: string): never {
  process.stderr.write(`error: ${message}\nRun with --help for the options.\n`);
  process.exit(2);
}

function parseArgs(argv: string[]) {
  const out = {
    port: 8090,
    host: '127.0.0.1',
    companies: [] as string[],
    pushUrl: null as string | null,
    retryMs: 1000,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    }
    if (!['--port', '--host', '--company', '--push-url', '--retry-interval-ms'].includes(arg))
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
    else if (arg === '--company')
      out.companies.push(
        /^[\x21-\x7e]{1,100}$/.test(value) ? value : fail('--company must be printable characters without spaces'),
      );
    else if (arg === '--push-url')
      out.pushUrl = /^https?:\/\//.test(value) ? value : fail('--push-url must be an http(s) URL');
    else
      out.retryMs =
        Number.isInteger(Number(value)) && Number(value) >= 0
          ? Number(value)
          : fail('--retry-interval-ms must be a whole number ≥ 0');
  }
  if (out.companies.length === 0) fail('give at least one --company <token>');
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const fake = await DpoFake.start(
    { companies: args.companies, pushUrl: args.pushUrl, pushRetryMs: args.retryMs },
    args.port,
    args.host,
  );
  process.stdout.write(
    `fake DPO Pay listening on ${fake.url} (DPO_API_URL=${fake.url}); ` +
      `companies: ${args.companies.map((c) => `…${c.slice(-4)}`).join(', ')}; push: ${args.pushUrl ?? 'none'}\n`,
  );
  const shutdown = () => void fake.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: Error) => fail(err.message));
