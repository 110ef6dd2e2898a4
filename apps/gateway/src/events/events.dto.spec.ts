import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { createdRange, IsTimestampOrUnixSeconds } from '../http/dates';
import { ListEventsQuery } from './events.dto';

describe('events list query', () => {
  const accepts = new IsTimestampOrUnixSeconds();

  it.each(['2025-01-31T12:00:00Z', '2025-01-31T12:00:00.123+02:00', '0', '1738324800', '253402300799'])('accepts %s', (v) => {
    expect(accepts.validate(v)).toBe(true);
  });

  it.each(['yesterday', '-5', '1.5', '253402300800', '2025-02-30T00:00:00Z', '2025-01-31', '', ' 1738324800'])('rejects %j', (v) => {
    expect(accepts.validate(v)).toBe(false);
  });

  it('turns Unix seconds and ISO timestamps into ISO bounds', () => {
    const q = plainToInstance(ListEventsQuery, { 'created[gte]': '1738324800', 'created[lt]': '2025-02-01T02:00:00+02:00' });
    expect(createdRange(q)).toEqual({ gte: '2025-01-31T12:00:00.000Z', lt: '2025-02-01T00:00:00.000Z' });
  });

  it('names the broken bracketed field', async () => {
    const errors = await validate(plainToInstance(ListEventsQuery, { 'created[gt]': 'soon' }));
    expect(errors.map((e) => e.property)).toEqual(['created[gt]']);
  });
});
