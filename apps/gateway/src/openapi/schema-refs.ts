import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * Plain JSON copies of TypeBox schemas for the document: a sub-schema that is one of the named
 * components (by identity: the code composes the same objects) becomes a `$ref` to it.
 */
export function schemaRefs(named: Record<string, object>): {
  ref: (schema: object) => SchemaObject;
  components: Record<string, SchemaObject>;
} {
  const names = new Map<object, string>(Object.entries(named).map(([name, schema]) => [schema, name]));
  // Object.entries skips TypeBox's symbol-keyed bookkeeping.
  const fields = (value: object): Record<string, unknown> =>
    Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (value === null || typeof value !== 'object') return value;
    const name = names.get(value);
    return name ? { $ref: `#/components/schemas/${name}` } : fields(value);
  };
  return {
    ref: (schema) => copy(schema) as SchemaObject,
    components: Object.fromEntries(
      Object.entries(named).map(([name, schema]) => [name, fields(schema) as SchemaObject]),
    ),
  };
}
