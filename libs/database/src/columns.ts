/**
 * The PostgreSQL types a JSON document's fields are read as (jsonb_to_record, jsonb_to_recordset). A `text[]` field is
 * a JSON array of strings (PostgreSQL ≥ 10 reads a JSON array into an array column).
 */
export type ColumnType =
  'text' | 'text[]' | 'integer' | 'bigint' | 'boolean' | 'jsonb' | 'timestamptz' | 'double precision';

/**
 * A row type's columns, listed once: the object must name every key of `Row` and no other, so a column added to the
 * type and not here (or the reverse) fails to compile.
 */
export function columnList<Row>(keys: { [K in keyof Row]-?: true }): string {
  return Object.keys(keys).join(', ');
}

/** A column list (columnList) with each column qualified by a table alias: `id, status` → `r.id, r.status`. */
export function qualify(list: string, alias: string): string {
  return list
    .split(', ')
    .map((column) => `${alias}.${column}`)
    .join(', ');
}

/** `name type, …` of a document's fields, for `jsonb_to_record(…) AS d(<this>)`. */
export function recordDefinition(fields: Record<string, ColumnType>): string {
  return Object.entries(fields)
    .map(([field, type]) => `${field} ${type}`)
    .join(', ');
}

export interface JsonInsertSpec<Values> {
  /** The table written. */
  into: string;
  /** Every field of the document with its type; each is written to the column of its name, unless in `inputs`. */
  fields: { [K in keyof Values]-?: ColumnType };
  /** Columns the database computes from the document's fields, as SQL over them: `{ settle_at: 'now() + …' }`. */
  computed?: Record<string, string>;
  /** Fields only `computed` reads, not columns of their own. */
  inputs?: readonly (keyof Values)[];
}

export interface JsonInsert<Values> {
  /** The insert, reading the document with jsonb_to_record; append ON CONFLICT or RETURNING. */
  readonly text: string;
  /** The statement's one parameter: the document, with exactly the declared fields. */
  params(values: Values): [string];
}

/**
 * A one-row insert whose values travel as one JSON document named by column. The column list, the parameters and
 * their types come from one declaration, and a logged failure's parameter names each value, so log redaction
 * recognises customer data (metadata, description) by its field name.
 */
export function jsonInsert<Values>(spec: JsonInsertSpec<Values>): JsonInsert<Values> {
  const fields = Object.keys(spec.fields) as (keyof Values & string)[];
  const inputs = new Set<keyof Values>(spec.inputs ?? []);
  const written = fields.filter((field) => !inputs.has(field));
  const computed = Object.entries(spec.computed ?? {});
  const columns = [...written, ...computed.map(([column]) => column)].join(', ');
  const values = [...written, ...computed.map(([, sql]) => sql)].join(', ');
  return {
    text: `INSERT INTO ${spec.into} (${columns})
           SELECT ${values} FROM jsonb_to_record($1::jsonb) AS d(${recordDefinition(spec.fields)})`,
    params: (v) => [JSON.stringify(Object.fromEntries(fields.map((field) => [field, documentValue(field, v[field])])))],
  };
}

/** A field's value in the document; a number JSON cannot carry (NaN, Infinity) would become null, so it throws. */
function documentValue(field: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`${field} is not a finite number`);
  return value ?? null;
}
