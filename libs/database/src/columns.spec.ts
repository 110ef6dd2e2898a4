import { columnList, jsonInsert, qualify, recordDefinition } from './columns';

describe('columnList and qualify', () => {
  it('lists the columns in the order named, and qualifies a list by an alias', () => {
    expect(columnList<{ id: string; status: string }>({ id: true, status: true })).toBe('id, status');
    expect(qualify('a, b', 't')).toBe('t.a, t.b');
  });
});

describe('jsonInsert', () => {
  interface Values {
    name: string;
    tags: string[];
    note: string | null;
    amount: number;
    delay: number | null;
  }
  const insert = jsonInsert<Values>({
    into: 'things',
    fields: { name: 'text', tags: 'text[]', note: 'text', amount: 'bigint', delay: 'double precision' },
    computed: { due_at: 'now() + make_interval(secs => delay)' },
    inputs: ['delay'],
  });

  it('writes every field but the inputs, then the computed columns, read from one jsonb document', () => {
    expect(insert.text.replace(/\s+/g, ' ')).toBe(
      'INSERT INTO things (name, tags, note, amount, due_at) ' +
        'SELECT name, tags, note, amount, now() + make_interval(secs => delay) ' +
        'FROM jsonb_to_record($1::jsonb) ' +
        'AS d(name text, tags text[], note text, amount bigint, delay double precision)',
    );
  });

  it('passes the declared fields only, an array as a JSON array and a missing value as null', () => {
    const values = { name: 'a', tags: ['x', 'y'], note: undefined as unknown as null, amount: 5, delay: 1.5 };
    const [document] = insert.params({ ...values, extra: 'not sent' } as Values);
    expect(JSON.parse(document)).toEqual({ name: 'a', tags: ['x', 'y'], note: null, amount: 5, delay: 1.5 });
  });

  it('refuses a number JSON cannot carry instead of writing null for it', () => {
    const values = { name: 'a', tags: [], note: null, amount: 5 };
    expect(() => insert.params({ ...values, delay: Number.NaN })).toThrow('delay is not a finite number');
    expect(() => insert.params({ ...values, amount: Infinity, delay: null })).toThrow('amount is not a finite number');
  });

  it('defines the record by the declared types', () => {
    expect(recordDefinition({ a: 'integer', b: 'timestamptz' })).toBe('a integer, b timestamptz');
  });
});
