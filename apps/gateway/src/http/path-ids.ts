import { ErrorCodes, PG_INT_MAX } from '@payments/contracts';
import { ApiException } from './api-exception';

/**
 * A serial id from the path (`/v1/callback/{id}`, `/admin/v1/businesses/{id}`): digits within a
 * PostgreSQL integer, else 404 — an id the column cannot hold names nothing.
 */
export function serialId(raw: string, what: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > PG_INT_MAX)
    throw new ApiException(ErrorCodes.NotFound, `no ${what} ${raw}`);
  return Number(raw);
}
