import 'reflect-metadata';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { OutcomeUnknownError } from '@payments/database';
import { DomainException } from './domain-exception';
import { RpcController, rpcReply } from './rpc-reply';
import { currentContext } from './request-context';

const payload = { ctx: { request_id: 'req_test' } };
const failingWith = (err: unknown) => () => Promise.reject(err);

describe('rpcReply', () => {
  it('wraps a result as ok, inside the caller request context', async () => {
    await expect(rpcReply('things.create', payload, () => ({ id: currentContext().request_id }))).resolves.toEqual({
      ok: true,
      data: { id: 'req_test' },
    });
  });

  it('answers a domain refusal with its code, whether thrown or rejected', async () => {
    const refusal = new DomainException('not_found', 'no such thing');
    await expect(rpcReply('things.get', payload, failingWith(refusal))).resolves.toEqual({
      ok: false,
      error: refusal.toPayload(),
    });
    await expect(
      rpcReply('things.get', payload, () => {
        throw refusal;
      }),
    ).resolves.toEqual({ ok: false, error: refusal.toPayload() });
  });

  it('answers validation_error, not an internal error, when PostgreSQL refuses a value (SQLSTATE 22xxx)', async () => {
    const driverError = Object.assign(new Error('value "3000000000" is out of range for type integer'), {
      code: '22003',
    });
    const reply = await rpcReply(
      'things.create',
      payload,
      failingWith(Object.assign(new Error('query failed'), { driverError })),
    );
    expect(reply).toEqual({ ok: false, error: { code: 'validation_error', message: expect.any(String) } });
    // The store's message quotes the value: it is not passed on.
    expect(JSON.stringify(reply)).not.toContain('3000000000');
  });

  it('tells the caller: check the outcome when a write lost its connection, retry when nothing was sent', async () => {
    const lost = new OutcomeUnknownError('INSERT …', [], new Error('Connection terminated unexpectedly'));
    const unknown = await rpcReply('transactions.initialize', payload, failingWith(lost));
    expect(unknown).toEqual({
      ok: false,
      error: { code: 'outcome_unknown', message: expect.stringContaining('check the outcome') },
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const unreachable = await rpcReply('transactions.initialize', payload, failingWith(refused));
    expect(unreachable).toEqual({
      ok: false,
      error: {
        code: 'service_unavailable',
        message: 'a data store is unreachable; try again shortly',
        not_executed: true,
      },
    });
  });

  it('still treats any other failure as an internal error', async () => {
    await expect(
      rpcReply('things.create', payload, failingWith(Object.assign(new Error('dup'), { code: '23505' }))),
    ).rejects.toEqual({ message: 'internal error' });
  });
});

describe('RpcController', () => {
  @RpcController()
  class Things {
    constructor(private readonly suffix: string) {}

    @MessagePattern('things.create')
    create(@Payload() req: { ctx: { request_id: string }; body: { name: string } }) {
      return `${req.body.name}${this.suffix}`;
    }

    helper() {
      return 'not a handler';
    }
  }

  it('wraps each message handler, keeping its name, pattern metadata and instance', async () => {
    const things = new Things('!');
    expect(Things.prototype.create.name).toBe('create');
    expect(Reflect.getMetadata(PATTERN_METADATA, Things.prototype.create)).toEqual(['things.create']);
    await expect(things.create({ ...payload, body: { name: 'a' } })).resolves.toEqual({ ok: true, data: 'a!' });
    expect(things.helper()).toBe('not a handler');
  });
});
