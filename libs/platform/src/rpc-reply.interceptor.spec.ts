import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, throwError } from 'rxjs';
import { RpcReplyInterceptor } from './rpc-reply.interceptor';

function context(): ExecutionContext {
  const rpc = { getData: () => ({ ctx: { request_id: 'req_test' } }), getContext: () => ({ getPattern: () => 'things.create' }) };
  return { switchToRpc: () => rpc, getHandler: () => function create() {} } as unknown as ExecutionContext;
}

const failingWith = (err: unknown): CallHandler => ({ handle: () => throwError(() => err) });

describe('RpcReplyInterceptor', () => {
  it('answers validation_error, not an internal error, when PostgreSQL refuses a value (SQLSTATE 22xxx)', async () => {
    const driverError = Object.assign(new Error('value "3000000000" is out of range for type integer'), { code: '22003' });
    const reply = await lastValueFrom(new RpcReplyInterceptor().intercept(context(), failingWith(Object.assign(new Error('query failed'), { driverError }))));
    expect(reply).toEqual({ ok: false, error: { code: 'validation_error', message: expect.any(String) } });
    // The store's message quotes the value: it is not passed on.
    expect(JSON.stringify(reply)).not.toContain('3000000000');
  });

  it('still treats any other failure as an internal error', async () => {
    await expect(lastValueFrom(new RpcReplyInterceptor().intercept(context(), failingWith(Object.assign(new Error('dup'), { code: '23505' }))))).rejects.toEqual({ message: 'internal error' });
  });
});
