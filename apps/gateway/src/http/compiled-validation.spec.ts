import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { ValidationTypes, getMetadataStorage, validate } from 'class-validator';
import { CreateBusinessDto, RedirectOriginsDto, RollKeyDto } from '../businesses/dtos';
import { CallbackPageQuery, CreateCallbackDto, DeliveriesQuery, RecoverDto, UpdateCallbackDto } from '../callbacks/callbacks.dto';
import { AdminRecoverDto } from '../callbacks/webhooks-admin.dto';
import { ListEventsQuery } from '../events/events.dto';
import { CreateLinkDto, ListLinksQuery, UpdateLinkDto } from '../links/links.dto';
import { ReconcileIdsDto, ReconcilePageQuery, ReconcileTransactionIdsDto } from '../reconcile/reconcile.dto';
import { InvoicePageQuery, LedgerPageQuery, SplitConfigPageQuery } from '../splits/dtos/page-query.dto';
import { CreateSplitConfigDto, UpdateSplitConfigDto } from '../splits/dtos/split-config.dto';
import { InitializeTransactionDto, VerifyTransactionQuery } from '../transactions/dtos/initialize-transaction.dto';
import { FetchTransactionQuery, ListRefundsQuery, ListTransactionsQuery, RefundDto } from '../transactions/dtos/transaction-queries.dto';
import { VALIDATOR_OPTIONS, certainlyValid, plainInstance } from './compiled-validation';
import { toInstance, transformed } from './validation';

const DTOS: (new () => object)[] = [
  InitializeTransactionDto,
  VerifyTransactionQuery,
  FetchTransactionQuery,
  ListTransactionsQuery,
  RefundDto,
  ListRefundsQuery,
  CreateBusinessDto,
  RollKeyDto,
  RedirectOriginsDto,
  CreateCallbackDto,
  UpdateCallbackDto,
  CallbackPageQuery,
  DeliveriesQuery,
  RecoverDto,
  AdminRecoverDto,
  ListEventsQuery,
  CreateLinkDto,
  UpdateLinkDto,
  ListLinksQuery,
  ReconcilePageQuery,
  ReconcileIdsDto,
  ReconcileTransactionIdsDto,
  LedgerPageQuery,
  InvoicePageQuery,
  SplitConfigPageQuery,
  CreateSplitConfigDto,
  UpdateSplitConfigDto,
];

/** Values a field may be given: right and wrong types, edges of the usual ranges and formats. */
const VALUES: unknown[] = [
  undefined, null, '', ' ', 'x', 'a'.repeat(101), 'a'.repeat(5001), '0', '1', '5', '-1', '1.5', 'abc', '100', '501',
  0, 1, -1, 1.5, 2, 100, 500, 501, 10_000, 1e15, Number.MAX_SAFE_INTEGER + 2, NaN, true, false,
  'USD', 'NGN', 'usd', 'card', 'mobile_money', 'bank_transfer', 'success', 'failed', 'pending', 'percentage', 'flat', 'fixed',
  'buyer@example.com', 'not-an-email', 'https://shop.example/done', 'http://localhost:3000/x', 'ftp://x', 'https://shop.example',
  '0241234567', '+233241234567', 'ref-1.2:3_4', 'bad ref!', 'txn_0123456789abcdefghijKLMN', 'rf_0123456789abcdefghijKLMN',
  '2026-01-02', '2026-13-40', '2026-01-02T03:04:05Z', '1767225600', 'live', 'test', 'secret', 'public',
  [], ['a'], [1, 2], ['https://shop.example'], [{ recipient: 'x', type: 'percentage', value: 100 }], {}, { order: '42' }, { nested: { a: 1 } },
];

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Per DTO: its properties, and valid inputs to start from (so the valid path is covered, not only refusals). */
const VALID: Map<Function, Record<string, unknown>[]> = new Map<Function, Record<string, unknown>[]>([
  [
    InitializeTransactionDto,
    [
      { amount: 1000, email: 'buyer@example.com', currency: 'USD', payment_method_type: 'card', transaction_reference: 'ref-1' },
      { amount: 5, email: 'buyer@example.com', currency: 'USD' },
      { amount: 250, email: 'buyer@example.com', currency: 'USD', payment_method_type: 'mobile_money', mobile_money_number: '0241234567', metadata: { order: '42' }, description: 'Two mugs' },
      { amount: 250, email: 'buyer@example.com', currency: 'USD', success_url: 'https://shop.example/done', failure_url: 'http://localhost:3000/x', requested_response: 'failed', description: null },
    ],
  ],
  [VerifyTransactionQuery, [{ reference: 'ref-1' }]],
  [RefundDto, [{ transaction_reference: 'ref-1' }, { transaction_reference: 'ref-1', amount: 100 }]],
  [ListTransactionsQuery, [{}, { limit: '5', status: 'success' }]],
]);

function properties(type: Function): string[] {
  const storage = getMetadataStorage();
  return Object.keys(storage.groupByPropertyName(storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false, undefined)));
}

/** Nested DTOs (ValidateNested) are always left to class-validator. */
function covered(type: Function): boolean {
  const storage = getMetadataStorage();
  return storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false, undefined).every((m) => m.type !== ValidationTypes.NESTED_VALIDATION && m.type !== ValidationTypes.PROMISE_VALIDATION);
}

function inputs(type: Function, count: number, next: () => number): Record<string, unknown>[] {
  const props = properties(type);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const out: Record<string, unknown>[] = [...(VALID.get(type) ?? [])];
  for (let i = 0; i < count; i++) {
    const start = VALID.get(type) ? { ...pick(VALID.get(type)!) } : {};
    // Mostly a few fields changed from a valid input, sometimes everything random, sometimes an unknown field.
    const changes = next() < 0.2 ? props.length : 1 + Math.floor(next() * 2);
    for (let c = 0; c < changes; c++) {
      const value = pick(VALUES);
      if (value === undefined) delete start[pick(props)];
      else start[pick(props)] = value;
    }
    if (next() < 0.05) start.unexpected = 'x';
    out.push(start);
  }
  return out;
}

describe('certainlyValid (the validation pipe’s fast path)', () => {
  it.each(DTOS.map((type) => [type.name, type] as const))('agrees with class-validator on %s for valid and invalid input alike', async (_name, type) => {
    const next = rng(0x5eed ^ type.name.length);
    let accepted = 0;
    for (const input of inputs(type, 400, next)) {
      const instance = plainToInstance(type, input);
      const errors = await validate(instance, VALIDATOR_OPTIONS);
      const fast = certainlyValid(instance);
      // Never accepts what class-validator refuses; and, for every DTO it covers, takes all it accepts.
      if (fast ? errors.length > 0 : covered(type) && errors.length === 0) throw new Error(`${type.name}: fast path says ${fast} for ${JSON.stringify(input)}, class-validator ${JSON.stringify(errors.map((e) => e.constraints))}`);
      if (fast) accepted++;
    }
    // The starting points are valid, so the fast path must have taken some (it would be no faster otherwise).
    if (VALID.has(type)) expect(accepted).toBeGreaterThanOrEqual(VALID.get(type)!.length);
  });

  it.each(DTOS.map((type) => [type.name, type] as const))('builds the same %s instance as class-transformer, key order included', (_name, type) => {
    const next = rng(0xc0ffee ^ type.name.length);
    for (const input of inputs(type, 400, next)) {
      const direct = toInstance(type, input);
      const viaTransformer = transformed(type, input);
      expect(direct.constructor).toBe(viaTransformer.constructor);
      expect(Object.keys(direct)).toEqual(Object.keys(viaTransformer));
      expect(JSON.stringify(direct)).toBe(JSON.stringify(viaTransformer));
      expect(direct).toStrictEqual(viaTransformer);
    }
  });

  it('copies initialize bodies directly (no class-transformer walk), and leaves converted query fields to class-transformer', () => {
    for (const body of VALID.get(InitializeTransactionDto)!) {
      const { metadata, ...rest } = body;
      const made = plainInstance(InitializeTransactionDto, metadata === undefined ? rest : body, metadata === undefined ? undefined : new Set(['metadata']));
      expect(made).toBeInstanceOf(InitializeTransactionDto);
    }
    // `limit` is converted from the query string's text by @Type(() => Number).
    expect(plainInstance(ListTransactionsQuery, { limit: '5' }, undefined)).toBeUndefined();
    expect(toInstance(ListTransactionsQuery, { limit: '5' })).toMatchObject({ limit: 5 });
  });

  it('leaves an object without validation metadata to class-validator (forbidUnknownValues refuses it)', async () => {
    class Bare {
      x = 1;
    }
    expect(certainlyValid(new Bare())).toBe(false);
    expect(await validate(new Bare(), VALIDATOR_OPTIONS)).toHaveLength(1);
  });
});
