import type { ArgumentsHost } from '@nestjs/common';
import { HttpException, NotFoundException } from '@nestjs/common';
import { ApiException } from './api-exception';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { BodyUnreadable } from './body-parsers';

function run(exception: unknown) {
  const res = { statusCode: 0, body: undefined as unknown, headers: {} as Record<string, string> };
  // The part of Fastify's reply the filter uses.
  const reply = {
    headers(h: Record<string, string>) {
      Object.assign(res.headers, h);
      return this;
    },
    code(code: number) {
      res.statusCode = code;
      return this;
    },
    type(t: string) {
      res.headers['content-type'] = t;
      return this;
    },
    send(payload: string) {
      res.body = JSON.parse(payload);
    },
  };
  const request = { requestId: 'req_test123', method: 'GET', url: '/v1/x?a=1' };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return res;
}

describe('AllExceptionsFilter', () => {
  it('answers an unexpected error with 500 and only the request id: no message, no stack', () => {
    const res = run(new Error('database password is hunter2 at /srv/app/db.ts:42'));
    expect(res.statusCode).toBe(500);
    expect(res.body).toEqual({
      result: 'error',
      code: 'internal_error',
      message: 'internal error; quote request id req_test123 to support',
      request_id: 'req_test123',
    });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });

  it('renders an ApiException with its status, field errors and headers', () => {
    const res = run(new ApiException('rate_limited', 'slow down', undefined, { 'Retry-After': '2' }));
    expect(res.statusCode).toBe(429);
    expect(res.headers['Retry-After']).toBe('2');
    expect(res.body).toEqual({
      result: 'error',
      code: 'rate_limited',
      message: 'slow down',
      request_id: 'req_test123',
    });
  });

  it('maps an unknown route to 404 not_found', () => {
    const res = run(new NotFoundException());
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', code: 'not_found' });
  });
});

describe('AllExceptionsFilter and unreachable stores', () => {
  it('answers 503 service_unavailable when the gateway’s database or Redis cannot be reached', () => {
    const res = run(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(res.statusCode).toBe(503);
    expect(res.body).toMatchObject({ result: 'error', code: 'service_unavailable', request_id: 'req_test123' });
  });
});

describe('AllExceptionsFilter and values the database refuses', () => {
  it('answers 400 validation_error for a PostgreSQL data error (SQLSTATE 22xxx), without the store’s message', () => {
    const res = run(Object.assign(new Error('value "3000000000" is out of range for type integer'), { code: '22003' }));
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'validation_error', request_id: 'req_test123' });
    expect(JSON.stringify(res.body)).not.toContain('3000000000');
  });
});

describe('AllExceptionsFilter and bodies that cannot be read', () => {
  it('answers 413 payload_too_large for a body over the limit (Fastify refuses it, Nest maps to HttpException)', () => {
    const res = run(new HttpException('Request body is too large', 413));
    expect(res.statusCode).toBe(413);
    expect(res.body).toEqual({
      result: 'error',
      code: 'payload_too_large',
      message: 'request body is larger than 64 KiB',
      request_id: 'req_test123',
    });
  });

  it('answers 400 validation_error for malformed JSON, and names the path without its query in a 404', () => {
    expect(run(new BodyUnreadable()).body).toEqual({
      result: 'error',
      code: 'validation_error',
      message: 'request body is not valid JSON',
      request_id: 'req_test123',
    });
    expect(run(new NotFoundException()).body).toMatchObject({ message: 'no route GET /v1/x' });
  });
});
