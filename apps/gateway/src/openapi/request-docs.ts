import { specOf, type RequestObject } from '../http/request-schema';

/**
 * The request bodies as named components of the document, with the objects nested in them (a
 * link's splits): each under the name its request schema gives, referenced wherever it is used.
 */
export function requestComponents(bodies: readonly RequestObject[]): Record<string, RequestObject> {
  const named: Record<string, RequestObject> = {};
  const visit = (schema: RequestObject): void => {
    const { name, fields } = specOf(schema);
    if (named[name] === schema) return;
    if (named[name]) throw new Error(`two request schemas are named ${name}`);
    named[name] = schema;
    for (const [, spec] of fields) if (spec.nested) visit(spec.nested);
  };
  bodies.forEach(visit);
  return Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)));
}
