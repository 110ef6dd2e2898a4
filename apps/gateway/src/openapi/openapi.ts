import type { INestApplication } from '@nestjs/common';
import { GUARDS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { ErrorCode } from '@payments/contracts';
import { HealthLive, HealthReady } from '@payments/contracts/schemas';
import { HealthController, apiResponseOf, documentHealthAnswers, type ApiResponseSpec } from '@payments/platform';
import { AdminGuard } from '../auth/admin.guard';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ErrorBody } from '../http/error-body';
import { RequestPipe } from '../http/request-validation';
import type { RequestObject } from '../http/request-schema';
import { errorResponses } from './error-docs';
import { LINKS } from './links';
import { requestComponents } from './request-docs';
import { API_ERRORS, ApiErrors, BODY_ONE_OF, PATH_ENUMS } from './route-docs';
import { schemaRefs } from './schema-refs';
import { WEBHOOK_DATA_COMPONENTS, webhooksSection } from './webhooks';

interface RouteFacts {
  body?: RequestObject;
  query?: RequestObject;
  apiKey: boolean;
  admin: boolean;
  publicKeyAllowed: boolean;
  response?: ApiResponseSpec;
  /** The handler's and its controller's ApiErrors; undefined when the handler declares none. */
  errors?: ErrorCode[];
  /** Path parameters limited to a list of values (ApiPathEnum). */
  pathEnums?: Record<string, string[]>;
  /** Request schemas the body is one of (ApiBodyOneOf). */
  bodyOneOf?: RequestObject[];
  /** Takes its whole body or query without a request schema. */
  unvalidated: boolean;
}

type RouteArgs = Record<string, { data?: unknown; pipes?: unknown[] }>;

/** A handler's whole body or query parameter (not one field of it), if it takes one. */
const wholeArg = (args: RouteArgs, type: RouteParamtypes) =>
  Object.entries(args).find(([k, v]) => Number(k.split(':')[0]) === type && v.data === undefined)?.[1];

/** The request schema a handler's body or query parameter is validated with (ValidBody, ValidQuery). */
const requestSchemaOf = (args: RouteArgs, type: RouteParamtypes): RequestObject | undefined =>
  (wholeArg(args, type)?.pipes ?? []).find((p): p is RequestPipe => p instanceof RequestPipe)?.schema;

/** What the controllers' decorators say about each handler: its request schemas, guards and errors. */
function routeFacts(app: INestApplication): Map<string, RouteFacts> {
  const facts = new Map<string, RouteFacts>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const ctrl = wrapper.metatype as Function | null;
      if (!ctrl) continue;
      const guards: Function[] = Reflect.getMetadata(GUARDS_METADATA, ctrl) ?? [];
      for (const key of Object.getOwnPropertyNames(ctrl.prototype)) {
        if (key === 'constructor') continue;
        const handler = ctrl.prototype[key];
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, ctrl, key) ?? {};
        const own: ErrorCode[] | undefined = Reflect.getMetadata(API_ERRORS, handler);
        facts.set(`${ctrl.name}_${key}`, {
          body: requestSchemaOf(args, RouteParamtypes.BODY),
          query: requestSchemaOf(args, RouteParamtypes.QUERY),
          apiKey: guards.includes(ApiKeyGuard),
          admin: guards.includes(AdminGuard),
          publicKeyAllowed: Reflect.getMetadata('public-key-allowed', handler) === true,
          response: apiResponseOf(handler),
          errors: own && [...(Reflect.getMetadata(API_ERRORS, ctrl) ?? []), ...own],
          pathEnums: Reflect.getMetadata(PATH_ENUMS, handler),
          bodyOneOf: Reflect.getMetadata(BODY_ONE_OF, handler),
          unvalidated: [RouteParamtypes.BODY, RouteParamtypes.QUERY].some(
            (t) => wholeArg(args, t) && !requestSchemaOf(args, t),
          ),
        });
      }
    }
  }
  return facts;
}

/** The health endpoints, served by every process, answer no error beyond those of any route. */
function documentHealthErrors(): void {
  for (const key of ['live', 'ready'] as const) {
    ApiErrors()(HealthController.prototype, key, { value: HealthController.prototype[key] });
  }
}

const jsonBody = (schema: SchemaObject) => ({ required: true, content: { 'application/json': { schema } } });

/**
 * The gateway's OpenAPI 3.1 document, generated from the code: controllers, TypeBox request schemas,
 * @ApiResponds and @ApiErrors, and libs/contracts for webhooks. `npm run openapi` writes
 * docs/openapi.json and a unit test fails when it drifts. Built once, never per request.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  documentHealthAnswers({ live: HealthLive, ready: HealthReady });
  documentHealthErrors();
  const base = new DocumentBuilder()
    .setTitle('Payments platform API')
    .setDescription(
      'Transactions, split payments with a commission ledger, and signed webhooks. ' +
        'Amounts are integers in minor units unless stated.',
    )
    .setVersion('1')
    .addSecurity('api_key', {
      type: 'http',
      scheme: 'bearer',
      description: 'API key, an opaque token: sk_test_…, sk_live_… (pk_… only for POST /v1/transactions)',
    })
    .addSecurity('admin_token', { type: 'http', scheme: 'bearer', description: 'ADMIN_API_TOKEN, an opaque token' })
    .build();
  const doc = SwaggerModule.createDocument(app, base);
  const facts = routeFacts(app);
  // The request schemas of documented routes only (the dashboard's own API is not documented).
  const documented = Object.values(doc.paths).flatMap((item) =>
    (['get', 'post', 'put', 'delete'] as const).map((m) => (item[m] as OperationObject | undefined)?.operationId),
  );
  const bodies = documented
    .map((id) => facts.get(id ?? ''))
    .flatMap((f) => [f?.body, ...(f?.bodyOneOf ?? [])])
    .filter((s): s is RequestObject => s !== undefined);
  const { ref, components } = schemaRefs({ ...requestComponents(bodies), ErrorBody, ...WEBHOOK_DATA_COMPONENTS });
  doc.openapi = '3.1.0';
  doc.components = { ...doc.components, schemas: components };
  doc.webhooks = webhooksSection(ref);

  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const name = `${method.toUpperCase()} ${path} (${op.operationId})`;
      const f = facts.get(op.operationId ?? '');
      const known = f?.response;
      if (!f || !known) throw new Error(`${name} declares no success answer: add @ApiResponds to its handler`);
      if (!f.errors)
        throw new Error(
          `${name} declares no errors: add @ApiErrors to its handler (with no codes when it answers none of its own)`,
        );
      // There is no global pipe: a body or query a handler takes without a schema is validated by
      // nobody, unless the handler reads raw input on purpose (it writes its own answer) or
      // validates it itself by the schemas it documents (ApiBodyOneOf).
      if (f.unvalidated && known.schema && !f.bodyOneOf) {
        throw new Error(`${name} takes its body or query without a request schema: use @ValidBody or @ValidQuery`);
      }
      const responses: OperationObject['responses'] = {};
      const links = LINKS[op.operationId ?? ''];
      responses[String(known.status)] = known.schema
        ? {
            description: known.description,
            content: { 'application/json': { schema: ref(known.schema) } },
            ...(links ? { links } : {}),
          }
        : {
            description: known.description,
            ...(known.contentType ? { content: { [known.contentType]: { schema: { type: 'string' } } } } : {}),
          };
      const params: ParameterObject[] =
        (op.parameters as ParameterObject[] | undefined)?.filter((p) => p.in !== 'query') ?? [];
      for (const p of params) if (f.pathEnums?.[p.name]) p.schema = { type: 'string', enum: f.pathEnums[p.name] };
      delete op.requestBody;
      if (f.body) op.requestBody = jsonBody(ref(f.body));
      if (f.bodyOneOf) op.requestBody = jsonBody({ oneOf: f.bodyOneOf.map((s) => ref(s)) });
      if (f.query) {
        const required = new Set(f.query.required ?? []);
        for (const [field, schema] of Object.entries(f.query.properties))
          params.push({ name: field, in: 'query', required: required.has(field), schema: ref(schema) });
      }
      if (path === '/checkout')
        params.push({ name: 'checkout_id', in: 'query', required: true, schema: { type: 'string' } });
      const guarded = f.apiKey || f.admin;
      if (method === 'post' && guarded) {
        params.push({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: 255 },
          description: 'Replays the first response for 24 h (Stripe semantics)',
        });
      }
      op.parameters = params;
      const route = {
        method,
        body: op.requestBody !== undefined,
        apiKey: f.apiKey,
        admin: f.admin,
        publicKeyAllowed: f.publicKeyAllowed,
      };
      op.responses = { ...responses, ...errorResponses(route, f.errors) };
      if (f.apiKey) op.security = [{ api_key: [] }];
      if (f.admin) op.security = [{ admin_token: [] }];
    }
  }
  return doc;
}
