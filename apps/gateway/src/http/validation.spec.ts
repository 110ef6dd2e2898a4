import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { ApiException } from './api-exception';
import { OptionalMetadata, StrictValidationPipe } from './validation';

class Body {
  @IsInt({ message: 'amount must be an integer' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(100, { message: 'amount must be at most 100' })
  amount: number;

  @IsOptional()
  @Matches(/^[a-z]+$/, { message: 'code must be lower-case letters' })
  @IsString({ message: 'code must be a string' })
  code?: string;
}

async function messageFor(value: unknown): Promise<string> {
  try {
    await new StrictValidationPipe().transform(value, { type: 'body', metatype: Body });
  } catch (err) {
    return (err as ApiException).message;
  }
  throw new Error('no validation error');
}

describe('StrictValidationPipe: the first broken rule, in the order required, type, format, range', () => {
  it('a missing field is reported as required, not out of range', async () => {
    expect(await messageFor({})).toBe('amount is required');
  });

  it('a string where an integer belongs is a type error', async () => {
    expect(await messageFor({ amount: '1000' })).toBe('amount must be an integer');
  });

  it('a value of the right type out of range names the range', async () => {
    expect(await messageFor({ amount: 1000 })).toBe('amount must be at most 100');
  });

  it('type before format, whatever order the decorators are written in', async () => {
    expect(await messageFor({ amount: 1, code: 5 })).toBe('code must be a string');
    expect(await messageFor({ amount: 1, code: 'ABC' })).toBe('code must be lower-case letters');
  });
});

class Annotated {
  @IsInt()
  amount: number;

  @OptionalMetadata()
  metadata?: Record<string, unknown>;
}

describe('StrictValidationPipe: metadata', () => {
  const pipe = new StrictValidationPipe();
  const run = (json: string) => pipe.transform(JSON.parse(json), { type: 'body', metatype: Annotated }) as Promise<Annotated>;

  it('keeps the caller’s keys as they are, "constructor" and "__proto__" included', async () => {
    const dto = await run('{"amount":1,"metadata":{"constructor":"c","__proto__":"p","a":"1"}}');
    expect(dto).toBeInstanceOf(Annotated);
    expect(Object.keys(dto.metadata!)).toEqual(['constructor', '__proto__', 'a']);
    expect(JSON.stringify(dto.metadata)).toBe('{"constructor":"c","__proto__":"p","a":"1"}');
  });

  it('names the key at fault, first by rule order', async () => {
    const err = (await run('{"amount":1,"metadata":{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk":"x","n":2}}').catch((e: unknown) => e)) as ApiException;
    expect(err.message).toBe('metadata.n must be a string (not number)');
    expect(err.errors?.map((e) => e.field)).toEqual(['metadata.n', `metadata.${'k'.repeat(41)}`]);
  });
});
