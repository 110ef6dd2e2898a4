/**
 * The gateway's validation of an initialize body alone, in this process: the validation pipe as
 * it runs (valid input takes the compiled check) against class-validator's validate() on the same
 * instance (what the pipe ran for every request before). Alternating rounds, CPU µs per call, so
 * a busy machine slows both alike. No infrastructure needed:
 *   bash scripts/with-node.sh node scripts/ts-run.js tests/bench/gateway-validation.ts [calls per round]
 */
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { VALIDATOR_OPTIONS } from '../../apps/gateway/src/http/compiled-validation';
import { StrictValidationPipe } from '../../apps/gateway/src/http/validation';
import { InitializeTransactionDto } from '../../apps/gateway/src/transactions/dtos/initialize-transaction.dto';

const CALLS = Number(process.argv[2] ?? 20_000);
const ROUNDS = 5;
const body = { amount: 2500, email: 'buyer@example.com', currency: 'USD', payment_method_type: 'card', transaction_reference: 'ref-0123456789', metadata: { order: '42' } };
const pipe = new StrictValidationPipe();
const meta = { type: 'body' as const, metatype: InitializeTransactionDto, data: undefined };

async function cpuUsPerCall(fn: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const before: number[] = [];
  const now: number[] = [];
  const classValidator = async () => {
    const instance = plainToInstance(InitializeTransactionDto, body);
    if ((await validate(instance, VALIDATOR_OPTIONS)).length > 0) throw new Error('the bench body must be valid');
  };
  const asRun = () => pipe.transform(body, meta);
  // Warm-up: both paths compiled by the JIT before anything is counted.
  await cpuUsPerCall(classValidator);
  await cpuUsPerCall(asRun);
  for (let r = 0; r < ROUNDS; r++) {
    before.push(await cpuUsPerCall(classValidator));
    now.push(await cpuUsPerCall(asRun));
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
  console.log(`initialize body, CPU µs per call (median of ${ROUNDS} rounds of ${CALLS}):`);
  console.log(`  plainToInstance + class-validator validate(): ${median(before).toFixed(1)}  [${fmt(before)}]`);
  console.log(`  validation pipe (compiled check):            ${median(now).toFixed(1)}  [${fmt(now)}]`);
}

void main();
