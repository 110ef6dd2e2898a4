import type { CursorQuery } from '../http/cursor-query';
import type { INestApplication } from '@nestjs/common';
import { GUARDS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
// The storage class-transformer's @Type() writes to: without it nested DTO arrays (a link's splits) become a dangling `Array` reference.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { HealthLive, HealthReady } from '@payments/contracts/schemas';
import { apiResponseOf, documentHealthAnswers, type ApiResponseSpec } from '@payments/platform';
import { AdminGuard } from '../auth/admin.guard';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ErrorBody } from '../http/error-body';
import { LINKS } from './links';
import { BODY_ONE_OF, PATH_ENUMS } from './route-docs';
import { schemaRefs } from './schema-refs';
import { WEBHOOK_DATA_COMPONENTS, webhooksSection } from './webhooks';

interface RouteFacts {
  query?: Function;
  apiKey: boolean;
  admin: boolean;
  publicKeyAllowed: boolean;
  response?: ApiResponseSpec;
  /** Path parameters limited to a list of values (ApiPathEnum). */
  pathEnums?: Record<string, string[]>;
  /** DTO class names the body is one of (ApiBodyOneOf). */
  bodyOneOf?: string[];
}

/** What the controllers' decorators say about each handler: its query DTO and its guards. */
function routeFacts(app: INestApplication): Map<string, RouteFacts> {
  const facts = new Map<string, RouteFacts>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const ctrl = wrapper.metatype as Function | null;
      if (!ctrl) continue;
      const guards: Function[] = Reflect.getMetadata(GUARDS_METADATA, ctrl) ?? [];
      for (const key of Object.getOwnPropertyNames(ctrl.prototype)) {
        if (key === 'constructor') continue;
        const args: Record<string, { index: number; data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, ctrl, key) ?? {};
        const types: Function[] = Reflect.getMetadata('design:paramtypes', ctrl.prototype, key) ?? [];
        const queryArg = Object.entries(args).find(([k, v]) => Number(k.split(':')[0]) === RouteParamtypes.QUERY && v.data === undefined);
        facts.set(`${ctrl.name}_${key}`, {
          query: queryArg ? types[queryArg[1].index] : undefined,
          apiKey: guards.includes(ApiKeyGuard),
          admin: guards.includes(AdminGuard),
          publicKeyAllowed: Reflect.getMetadata('public-key-allowed', ctrl.prototype[key]) === true,
          response: apiResponseOf(ctrl.prototype[key]),
          pathEnums: Reflect.getMetadata(PATH_ENUMS, ctrl.prototype[key]),
          bodyOneOf: Reflect.getMetadata(BODY_ONE_OF, ctrl.prototype[key]),
        });
      }
    }
  }
  return facts;
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });

/**
 * The OpenAPI 3.1 document of the gateway, generated from the code: paths and bodies from the
 * controllers, request schemas from the class-validator rules of the DTOs, success answers from
 * each handler's @ApiResponds schema (the type its presenter returns), webhooks from the payload
 * schemas of libs/contracts, errors from the guards and the error model (ErrorBody).
 * `npm run openapi` writes docs/openapi.json; a unit test fails when it drifts from the code.
 * Built once (on the first request for /docs, or by `npm run openapi`), never per request.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  documentHealthAnswers({ live: HealthLive, ready: HealthReady });
  const base = new DocumentBuilder()
    .setTitle('Payments platform API')
    .setDescription('Transactions, split payments with a commission ledger, and signed webhooks. Amounts are integers in minor units unless stated.')
    .setVersion('1')
    .addSecurity('api_key', { type: 'http', scheme: 'bearer', description: 'API key, an opaque token: sk_test_…, sk_live_… (pk_… only for POST /v1/transactions)' })
    .addSecurity('admin_token', { type: 'http', scheme: 'bearer', description: 'ADMIN_API_TOKEN, an opaque token' })
    .build();
  const doc = SwaggerModule.createDocument(app, base);
  // Every class with class-validator rules becomes a schema; the config classes are not part of the API.
  const schemas = Object.fromEntries(
    Object.entries(validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/', classTransformerMetadataStorage: defaultMetadataStorage }) as Record<string, SchemaObject>).filter(([name]) => !name.endsWith('Config')),
  );
  const { ref, components } = schemaRefs({ ErrorBody, ...WEBHOOK_DATA_COMPONENTS });
  doc.openapi = '3.1.0';
  doc.components = { ...doc.components, schemas: { ...schemas, ...components } };
  doc.webhooks = webhooksSection(ref);
  const facts = routeFacts(app);

  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const f = facts.get(op.operationId ?? '');
      const known = f?.response;
      if (!f || !known) throw new Error(`${method.toUpperCase()} ${path} (${op.operationId}) declares no success answer: add @ApiResponds to its handler`);
      const responses: OperationObject['responses'] = {};
      const links = LINKS[op.operationId ?? ''];
      responses[String(known.status)] = known.schema
        ? { description: known.description, content: { 'application/json': { schema: ref(known.schema) } }, ...(links ? { links } : {}) }
        : { description: known.description, ...(known.contentType ? { content: { [known.contentType]: { schema: { type: 'string' } } } } : {}) };
      const params: ParameterObject[] = (op.parameters as ParameterObject[] | undefined)?.filter((p) => p.in !== 'query') ?? [];
      for (const p of params) if (p.in === 'path' && f.pathEnums?.[p.name]) p.schema = { type: 'string', enum: f.pathEnums[p.name] };
      if (f.bodyOneOf) {
        op.requestBody = { required: true, content: { 'application/json': { schema: { oneOf: f.bodyOneOf.map((name) => ({ $ref: `#/components/schemas/${name}` })) } } } };
      }
      if (f.query) {
        const schema = schemas[f.query.name];
        const required = new Set(schema?.required ?? []);
        // A cursor list's ids are checked by one custom validator, which no schema converter reads: its pattern is on the class.
        const cursorIds = (f.query as Partial<typeof CursorQuery>).cursorIds;
        for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
          const cursor = cursorIds && (name === 'starting_after' || name === 'ending_before');
          params.push({ name, in: 'query', required: required.has(name), schema: (cursor ? { ...prop, pattern: cursorIds.pattern.source } : prop) as SchemaObject });
        }
      }
      if (path === '/checkout') params.push({ name: 'checkout_id', in: 'query', required: true, schema: { type: 'string' } });
      const body = op.requestBody !== undefined;
      const guarded = f.apiKey || f.admin;
      if (method === 'post' && guarded) {
        params.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Replays the first response for 24 h (Stripe semantics)' });
      }
      op.parameters = params;
      // The input guard applies to every request: bad UTF-8, control characters, nesting, huge query strings.
      responses['400'] = errorResponse('validation_error: malformed JSON, wrong type, missing or unknown field, control characters, bad UTF-8, nesting over 32 levels');
      if (guarded) responses['401'] = errorResponse('invalid_api_key');
      if (f.apiKey && !f.publicKeyAllowed) responses['403'] = errorResponse('secret_key_required: a public key was used');
      if (params.some((p) => p.in === 'path') || /verify|fetch|refund|recover|resend/.test(path)) responses['404'] = errorResponse('not_found (also for another business’s or mode’s ids)');
      if (method === 'post' && guarded) {
        responses['409'] = errorResponse('idempotency_in_progress, or duplicate_reference for a reused transaction_reference');
        responses['422'] = errorResponse('idempotency_key_reused; refund_exceeds_amount, transaction_not_refundable, payment_method_unavailable where they apply');
      }
      responses['413'] = errorResponse(body ? 'payload_too_large: body over 64 KiB or query string over 8 KiB' : 'payload_too_large: query string over 8 KiB');
      if (f.apiKey) responses['429'] = errorResponse('rate_limited; see Retry-After and RateLimit-* headers');
      responses['500'] = errorResponse('internal_error: only the request id is revealed');
      responses['503'] = errorResponse('service_unavailable: a downstream service or store is unreachable; nothing was written');
      op.responses = responses;
      if (f.apiKey) op.security = [{ api_key: [] }];
      if (f.admin) op.security = [{ admin_token: [] }];
    }
  }
  return doc;
}
