import { ApiException } from '../http/api-exception';
import { createdRange, isTimestampOrUnixSeconds } from '../http/dates';
import { validateRequest } from '../http/request-validation';
import { ListEventsQuery } from './event.requests';

describe('events list query', () => {
  it.each(['2025-01-31T12:00:00Z', '2025-01-31T12:00:00.123+02:00', '0', '1738324800', '253402300799'])(
    'accepts %s',
    (v) => {
      expect(isTimestampOrUnixSeconds(v)).toBe(true);
    },
  );

  it.each(['yesterday', '-5', '1.5', '253402300800', '2025-02-30T00:00:00Z', '2025-01-31', '', ' 1738324800'])(
    'rejects %j',
    (v) => {
      expect(isTimestampOrUnixSeconds(v)).toBe(false);
    },
  );

  it('turns Unix seconds and ISO timestamps into ISO bounds', () => {
    const q = validateRequest(ListEventsQuery, {
      'created[gte]': '1738324800',
      'created[lt]': '2025-02-01T02:00:00+02:00',
    });
    expect(createdRange(q)).toEqual({ gte: '2025-01-31T12:00:00.000Z', lt: '2025-02-01T00:00:00.000Z' });
  });

  it('names the broken bracketed field', () => {
    const refused = (() => {
      try {
        validateRequest(ListEventsQuery, { 'created[gt]': 'soon' });
      } catch (err) {
        return err as ApiException;
      }
    })();
    expect(refused?.errors?.map((e) => e.field)).toEqual(['created[gt]']);
  });
});
