import { isDataError, isRowError } from './data-error';

describe('isDataError', () => {
  it('recognises SQLSTATE class 22 on the error, its driver error or its cause', () => {
    for (const code of ['22P05', '22021', '22003', '22008', '22007']) expect(isDataError({ code })).toBe(true);
    expect(isDataError({ message: 'query failed', driverError: { code: '22003' } })).toBe(true);
    expect(isDataError(new Error('wrapped', { cause: { code: '22021' } }))).toBe(true);
  });

  it('leaves every other error alone', () => {
    for (const code of ['23505', '40001', '08006', 'ECONNREFUSED', '2200', '22'])
      expect(isDataError({ code })).toBe(false);
    expect(isDataError(new Error('boom'))).toBe(false);
    expect(isDataError(null)).toBe(false);
    expect(isDataError('22003')).toBe(false);
  });
});

describe('isRowError', () => {
  it('recognises data exceptions and integrity constraint violations, also wrapped', () => {
    for (const code of ['22003', '22P05', '23505', '23514', '23502', '23503']) expect(isRowError({ code })).toBe(true);
    expect(isRowError({ message: 'query failed', driverError: { code: '23505' } })).toBe(true);
  });

  it('leaves errors of the statement or the connection alone', () => {
    for (const code of ['57014', '40P01', '55P03', '40001', '08006', '57P01', 'ECONNRESET', '23'])
      expect(isRowError({ code })).toBe(false);
    expect(isRowError(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
