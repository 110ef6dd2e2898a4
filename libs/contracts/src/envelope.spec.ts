import { envelopeProblem, type EventEnvelope } from './envelope';

const valid: EventEnvelope = {
  id: 'evt-0001',
  type: 'payments.transaction.status-changed',
  version: 1,
  occurred_at: '2024-05-01T12:34:56.789Z',
  producer: 'transaction-service',
  mode: 'test',
  business_id: 42,
  correlation_id: 'req_abc',
  data: { anything: true },
};

const withField = (field: string, value: unknown) => ({ ...valid, [field]: value });
const without = (field: string) => {
  const copy: Record<string, unknown> = { ...valid };
  delete copy[field];
  return copy;
};

describe('envelopeProblem', () => {
  it('accepts a valid envelope', () => {
    expect(envelopeProblem(valid)).toBeNull();
  });

  it('accepts live mode, a null correlation_id and a time-zone offset', () => {
    expect(
      envelopeProblem({ ...valid, mode: 'live', correlation_id: null, occurred_at: '2024-05-01T14:34:56+02:00' }),
    ).toBeNull();
  });

  it('accepts a round trip through JSON (as read from Kafka)', () => {
    expect(envelopeProblem(JSON.parse(JSON.stringify(valid)))).toBeNull();
  });

  it.each([null, undefined, 'string', 42, true, [], [valid]])('refuses the non-object %p', (value) => {
    expect(envelopeProblem(value)).toBe('envelope is not a JSON object');
  });

  it.each([
    ['id', undefined, /^id /],
    ['id', '', /^id /],
    ['id', 123, /^id /],
    ['type', undefined, /^type /],
    ['type', '', /^type /],
    ['version', undefined, /^version /],
    ['version', 0, /^version /],
    ['version', 1.5, /^version /],
    ['version', '1', /^version /],
    ['occurred_at', undefined, /^occurred_at /],
    ['occurred_at', 'yesterday', /^occurred_at /],
    ['occurred_at', '2024-13-45T99:00:00Z', /^occurred_at /],
    ['occurred_at', 1714566896789, /^occurred_at /],
    ['producer', undefined, /^producer /],
    ['producer', 7, /^producer /],
    ['mode', undefined, /^mode /],
    ['mode', 'prod', /^mode /],
    ['mode', 'TEST', /^mode /],
    ['business_id', undefined, /^business_id /],
    ['business_id', 4.2, /^business_id /],
    ['business_id', '42', /^business_id /],
    ['correlation_id', undefined, /^correlation_id /],
    ['correlation_id', 5, /^correlation_id /],
    ['data', null, /^data /],
    ['data', undefined, /^data /],
    ['data', 'text', /^data /],
    ['data', 3, /^data /],
  ])('names %s when it is %p', (field, value, reason) => {
    const envelope = value === undefined ? without(field) : withField(field, value);
    expect(envelopeProblem(envelope)).toMatch(reason);
  });

  it('reports a missing id before anything else', () => {
    expect(envelopeProblem({})).toBe('id must be a non-empty string');
  });

  it('ignores extra fields', () => {
    expect(envelopeProblem({ ...valid, extra: 'x' })).toBeNull();
  });
});
