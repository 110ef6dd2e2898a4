import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';

/**
 * Validates values against schemas of the committed OpenAPI document (docs/openapi.json, which a
 * unit test keeps equal to what the code generates): what a client generated from it would expect.
 */
export interface DocumentValidator {
  /** Errors of `value` against the success answer of an operation (by operationId), [] when valid. */
  response(operationId: string, value: unknown): string[];
  /** Errors of `value` against the request body of a webhook event type, [] when valid. */
  webhook(eventType: string, value: unknown): string[];
  /** The event types the document has a `webhooks` entry for, in its order. */
  webhookTypes(): string[];
}

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const DOC_ID = 'openapi.json';

export function documentValidator(): DocumentValidator {
  const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'docs', 'openapi.json'), 'utf8'));
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the document's own keys (paths, info…) are not schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, DOC_ID);
  const pointers = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(item)) {
      const ok = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'));
      if (op.operationId && ok?.[1].content?.['application/json']) {
        pointers.set(
          op.operationId,
          `/paths/${escape(path)}/${method}/responses/${ok[0]}/content/application~1json/schema`,
        );
      }
    }
  }
  const check = (pointer: string | undefined, what: string, value: unknown): string[] => {
    if (!pointer) throw new Error(`the document has no JSON schema for ${what}`);
    const validate = ajv.getSchema(`${DOC_ID}#${pointer}`);
    if (!validate) throw new Error(`cannot resolve ${pointer}`);
    return validate(value) ? [] : (validate.errors ?? []).map(describe);
  };
  return {
    response: (operationId, value) => check(pointers.get(operationId), operationId, value),
    webhook: (eventType, value) =>
      check(
        doc.webhooks?.[eventType]
          ? `/webhooks/${escape(eventType)}/post/requestBody/content/application~1json/schema`
          : undefined,
        `webhook ${eventType}`,
        value,
      ),
    webhookTypes: () => Object.keys(doc.webhooks ?? {}),
  };
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

const describe = (e: ErrorObject) => {
  const extra = e.params && 'additionalProperty' in e.params ? `: ${e.params.additionalProperty}` : '';
  return `${e.instancePath || '/'} ${e.message}${extra}`;
};
