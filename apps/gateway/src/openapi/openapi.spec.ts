import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Type } from '@payments/contracts/schemas';
import { ApiResponds } from '@payments/platform';
import { buildOpenApiDocument } from './openapi';
import { ApiErrors } from './route-docs';
import { previewOpenApiDocument } from './preview';

/** CI fails when the committed OpenAPI document no longer matches the code. */
describe('OpenAPI document', () => {
  let generated: Awaited<ReturnType<typeof previewOpenApiDocument>>;

  beforeAll(async () => {
    generated = JSON.parse(JSON.stringify(await previewOpenApiDocument()));
  });

  it('matches the committed docs/openapi.json (run `npm run openapi` after changing an endpoint)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'openapi.json'), 'utf8'));
    expect(generated).toEqual(committed);
  });

  it('declares API keys and the admin token as plain bearer tokens, not JWTs', () => {
    const schemes = generated.components?.securitySchemes ?? {};
    expect(Object.keys(schemes).sort()).toEqual(['admin_token', 'api_key']);
    for (const scheme of Object.values(schemes)) {
      expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(scheme).not.toHaveProperty('bearerFormat');
    }
  });

  it('is OpenAPI 3.1 and documents each webhook event type with its Standard Webhooks headers', () => {
    expect(generated.openapi).toBe('3.1.0');
    const webhooks =
      (generated as { webhooks?: Record<string, { post: { parameters: { name: string }[]; requestBody: unknown } }> })
        .webhooks ?? {};
    expect(Object.keys(webhooks)).toEqual(
      expect.arrayContaining(['payment.created', 'transaction.success', 'refund.success', 'payout.completed', 'ping']),
    );
    for (const hook of Object.values(webhooks)) {
      expect(hook.post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(hook.post.requestBody).toBeDefined();
    }
  });

  it('covers every endpoint of the spec, with its request and response shapes and the error model', () => {
    const expected: [string, string][] = [
      ['post', '/v1/transactions'],
      ['get', '/v1/transactions/verify'],
      ['get', '/v1/transactions/list'],
      ['get', '/v1/transactions/fetch'],
      ['post', '/v1/transactions/refund'],
      ['post', '/v1/splits/config'],
      ['get', '/v1/splits/config'],
      ['put', '/v1/splits/config/{public_id}'],
      ['delete', '/v1/splits/config/{public_id}'],
      ['get', '/v1/splits/ledger'],
      ['get', '/v1/splits/ledger/summary'],
      ['post', '/v1/links'],
      ['post', '/v1/callback'],
      ['get', '/v1/callback/list'],
      ['get', '/v1/callback/{id}'],
      ['get', '/v1/callback/fetch/{callback_id}'],
      ['put', '/v1/callback/{id}'],
      ['delete', '/v1/callback/{id}'],
      ['post', '/v1/callback/{id}/test'],
      ['get', '/v1/events'],
      ['get', '/v1/events/{id}'],
      ['get', '/v1/settings/redirect_origins'],
      ['put', '/v1/settings/redirect_origins'],
      ['get', '/admin/v1/businesses/{id}/redirect_origins'],
      ['put', '/admin/v1/businesses/{id}/redirect_origins'],
      ['get', '/v1/connections'],
      ['get', '/v1/connections/{provider}'],
      ['put', '/v1/connections/{provider}'],
      ['delete', '/v1/connections/{provider}'],
    ];
    for (const [method, path] of expected) {
      const op = generated.paths[path]?.[method as 'get'];
      expect({ method, path, documented: Boolean(op) }).toEqual({ method, path, documented: true });
      const ok = Object.entries(op!.responses).find(([s]) => s.startsWith('2'));
      expect({ path, hasSchema: Boolean((ok?.[1] as { content?: unknown }).content) }).toEqual({
        path,
        hasSchema: true,
      });
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(['500', '503']));
    }
    const init = generated.components!.schemas!.InitializeTransactionDto as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(init.properties)).toEqual(
      expect.arrayContaining([
        'amount',
        'email',
        'currency',
        'payment_method_type',
        'payment_method_code',
        'mobile_money_number',
        'transaction_reference',
        'success_url',
        'failure_url',
        'requested_response',
      ]),
    );
    expect(init.required).toEqual(expect.arrayContaining(['amount', 'email', 'currency']));
    const list = generated.paths['/v1/transactions/list'].get!;
    expect(list.parameters!.map((p) => (p as { name: string }).name)).toEqual(
      expect.arrayContaining(['start_date', 'end_date', 'limit']),
    );
    expect(generated.paths['/v1/callback/list'].get!.responses['403']).toBeDefined();
    expect(generated.paths['/v1/transactions'].post!.responses['403']).toBeUndefined(); // a public key may initialize
  });

  it("documents a connection's provider as one of the providers and its PUT body as one of their credentials", () => {
    const item = generated.paths['/v1/connections/{provider}'];
    for (const op of [item.get!, item.put!, item.delete!]) {
      expect(op.parameters).toEqual([
        { name: 'provider', required: true, in: 'path', schema: { type: 'string', enum: ['paynow', 'dpo', 'ozow'] } },
      ]);
      expect(op.responses['403']).toBeDefined();
      expect(op.responses['404']).toBeDefined();
    }
    expect(item.put!.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            oneOf: ['PaynowConnectionDto', 'DpoConnectionDto', 'OzowConnectionDto'].map((n) => ({
              $ref: `#/components/schemas/${n}`,
            })),
          },
        },
      },
    });
    const schemas = generated.components!.schemas! as Record<
      string,
      { required: string[]; properties: Record<string, { type: string; pattern: string }> }
    >;
    expect(schemas.PaynowConnectionDto.required).toEqual(['integration_id', 'integration_key']);
    expect(schemas.DpoConnectionDto.required).toEqual(['company_token', 'service_type']);
    expect(schemas.OzowConnectionDto.required).toEqual(['site_code', 'private_key', 'api_key']);
    expect(schemas.PaynowConnectionDto.properties.integration_id).toEqual({ type: 'string', pattern: '^[0-9]{1,20}$' });
  });

  it("documents each operation's errors from its handler, not from its path", () => {
    const statuses = (path: string, method: 'get' | 'post' | 'put' | 'delete') =>
      Object.keys(generated.paths[path][method]!.responses);
    // An admin recover names no resource: no 404, though its path says "recover".
    expect(statuses('/admin/v1/webhooks/recover', 'post')).not.toContain('404');
    expect(statuses('/v1/transactions/verify', 'get')).toContain('404');
    expect(statuses('/v1/transactions', 'post')).toEqual(
      expect.arrayContaining(['402', '409', '422', '502', '503', '504']),
    );
    expect(statuses('/checkout/checkout.css', 'get')).not.toContain('504');
    const conflict = generated.paths['/v1/transactions'].post!.responses['409'] as { description: string };
    expect(conflict.description).toContain('duplicate_reference');
    expect(conflict.description).toContain('idempotency_in_progress');
  });

  it('refuses to build when a route declares no errors (@ApiErrors)', async () => {
    @Controller('v1/silent')
    class SilentController {
      @Get()
      @ApiResponds(200, 'The answer', Type.Object({ result: Type.Literal('success') }))
      list(): { result: 'success' } {
        return { result: 'success' };
      }
    }
    @Module({ controllers: [SilentController] })
    class SilentModule {}
    const app = await NestFactory.create(SilentModule, { preview: true, logger: false });
    try {
      expect(() => buildOpenApiDocument(app)).toThrow('GET /v1/silent (SilentController_list) declares no errors');
    } finally {
      await app.close();
    }
  });

  it('refuses to build when a route takes a body that no request schema validates', async () => {
    @Controller('v1/unchecked')
    class UncheckedController {
      @Post()
      @ApiResponds(200, 'The answer', Type.Object({ result: Type.Literal('success') }))
      @ApiErrors()
      create(@Body() _body: { name: string }): { result: 'success' } {
        return { result: 'success' };
      }
    }
    @Module({ controllers: [UncheckedController] })
    class UncheckedModule {}
    const app = await NestFactory.create(UncheckedModule, { preview: true, logger: false });
    try {
      expect(() => buildOpenApiDocument(app)).toThrow(
        'POST /v1/unchecked (UncheckedController_create) takes its body or query without a request schema',
      );
    } finally {
      await app.close();
    }
  });

  it('refuses to build when a route declares no success answer (@ApiResponds)', async () => {
    @Controller('v1/undeclared')
    class UndeclaredController {
      @Get()
      list() {
        return { result: 'success' };
      }
    }
    @Module({ controllers: [UndeclaredController] })
    class UndeclaredModule {}
    const app = await NestFactory.create(UndeclaredModule, { preview: true, logger: false });
    try {
      expect(() => buildOpenApiDocument(app)).toThrow(
        'GET /v1/undeclared (UndeclaredController_list) declares no success answer',
      );
    } finally {
      await app.close();
    }
  });
});
