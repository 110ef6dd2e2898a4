import { isDataError } from './data-error';

describe('isDataError', () => {
  it('recognises SQLSTATE class 22 on the error, its driver error or its cause', () => {
    for (const code of ['22P05', '22021', '22003', '22008', '22007']) expect(isDataError({ code })).toBe(true);
    expect(isDataError({ message: 'query failed', driverError: { code: '22003' } })).toBe(true);
    expect(isDataError(new Error('wrapped', { cause: { code: '22021' } }))).toBe(true);
  });

  it('leaves every other error alone', () => {
    for (const code of ['23505', '40001', '08006', 'ECONNREFUSED', '2200', '22']) expect(isDataError({ code })).toBe(false);
    expect(isDataError(new Error('boom'))).toBe(false);
    expect(isDataError(null)).toBe(false);
    expect(isDataError('22003')).toBe(false);
  });
});
