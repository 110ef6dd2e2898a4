import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { CreateLinkDto, UpdateLinkDto } from '../links/links.dto';
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

describe('StrictValidationPipe: a payment link description follows the one description rule', () => {
  const pipe = new StrictValidationPipe();
  const errorsOf = async (metatype: new () => object, body: Record<string, unknown>) => {
    try {
      await pipe.transform(body, { type: 'body', metatype });
    } catch (err) {
      return { message: (err as ApiException).message, errors: (err as ApiException).errors };
    }
    return undefined;
  };
  const link = { amount: 1000, currency: 'USD' };
  const range = { message: 'description must be 1 to 1000 characters', errors: [{ field: 'description', message: 'must be 1 to 1000 characters' }] };

  it('counts characters (code points) as transactions and refunds do', async () => {
    // 600 hearts with a variation selector: 1200 characters, though validator.js's length says 600.
    expect(await errorsOf(CreateLinkDto, { ...link, description: '\u2764\uFE0F'.repeat(600) })).toEqual(range);
    expect(await errorsOf(UpdateLinkDto, { description: '\u2764\uFE0F'.repeat(600) })).toEqual(range);
    expect(await errorsOf(CreateLinkDto, { ...link, description: '😀'.repeat(1000) })).toBeUndefined();
  });

  it('is required on create, may be left out but not removed on update', async () => {
    expect(await errorsOf(CreateLinkDto, link)).toEqual({ message: 'description is required', errors: [{ field: 'description', message: 'is required' }] });
    expect(await errorsOf(CreateLinkDto, { ...link, description: '' })).toEqual(range);
    expect(await errorsOf(CreateLinkDto, { ...link, description: 'd'.repeat(1001) })).toEqual(range);
    expect(await errorsOf(UpdateLinkDto, {})).toBeUndefined();
    expect(await errorsOf(UpdateLinkDto, { description: '' })).toEqual(range);
    expect(await errorsOf(UpdateLinkDto, { description: null })).toEqual({ message: 'description must be a string', errors: [{ field: 'description', message: 'must be a string' }] });
  });
});
