/**
 * The gateway's validation of an initialize body alone, in this process: the compiled TypeBox check with what runs
 * beside it (what nearly every request takes), and a refused body, whose error list the rules work out. CPU µs per call
 * over alternating rounds, so a busy machine slows both alike. No infrastructure needed:
 *   bash scripts/with-node.sh node scripts/ts-run.js tests/bench/gateway-validation.ts [calls per round]
 */
import 'reflect-metadata';
import { validateRequest } from '../../apps/gateway/src/http/request-validation';
import { InitializeTransactionDto } from '../../apps/gateway/src/transactions/transaction.requests';

const CALLS = Number(process.argv[2] ?? 20_000);
const ROUNDS = 5;
const body = {
  amount: 2500,
  email: 'buyer@example.com',
  currency: 'USD',
  payment_method_type: 'card',
  transaction_reference: 'ref-0123456789',
  metadata: { order: '42' },
};
const refused = { ...body, amount: '2500', currency: 'usd', extra: 1 };

function cpuUsPerCall(fn: () => unknown): number {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function main(): void {
  const valid: number[] = [];
  const invalid: number[] = [];
  const accept = () => validateRequest(InitializeTransactionDto, body);
  const refuse = () => {
    try {
      validateRequest(InitializeTransactionDto, refused);
    } catch {
      return;
    }
    throw new Error('the refused bench body must be refused');
  };
  // Warm-up: both paths compiled by the JIT before anything is counted.
  cpuUsPerCall(accept);
  cpuUsPerCall(refuse);
  for (let r = 0; r < ROUNDS; r++) {
    valid.push(cpuUsPerCall(accept));
    invalid.push(cpuUsPerCall(refuse));
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
  console.log(`initialize body, CPU µs per call (median of ${ROUNDS} rounds of ${CALLS}):`);
  console.log(`  valid (compiled check):           ${median(valid).toFixed(1)}  [${fmt(valid)}]`);
  console.log(`  refused (check, then the rules):  ${median(invalid).toFixed(1)}  [${fmt(invalid)}]`);
}

main();
