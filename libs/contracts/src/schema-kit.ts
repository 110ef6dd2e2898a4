import { Kind, Type, TypeRegistry, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks of the schemas that are both the TypeScript types of what the platform sends
 * (presenters, webhook payloads) and the JSON Schemas of the OpenAPI document: one definition.
 * The objects are built once, at module load; nothing here runs per request.
 */
export { Type, type Static, type TObject, type TProperties, type TSchema };

/** A closed object: every property required, no other property allowed. */
export const Closed = <P extends TProperties>(properties: P, description?: string): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

/** A value or null (JSON Schema 2020-12 / OpenAPI 3.1: `type: [T, 'null']` spelled as anyOf). */
export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

// Lets TypeBox's own checker (Value.Check) validate the `enum` schemas below.
if (!TypeRegistry.Has('StringEnum'))
  TypeRegistry.Set<{ enum: string[] }>('StringEnum', (schema, value) => schema.enum.includes(value as string));

/** One of a fixed list of strings, typed as their union and documented as `enum`. */
export const StringEnum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({
    [Kind]: 'StringEnum',
    type: 'string',
    enum: [...values],
    ...(description ? { description } : {}),
  });

export const Str = (description?: string) => Type.String(description ? { description } : {});
export const Int = (description?: string) => Type.Integer(description ? { description } : {});
export const Num = (description?: string) => Type.Number(description ? { description } : {});
export const Bool = (description?: string) => Type.Boolean(description ? { description } : {});
export const List = <T extends TSchema>(items: T, description?: string) =>
  Type.Array(items, description ? { description } : {});
