import { ErrorCodes, type Mode } from '@payments/contracts';
import { ApiException } from '../http/api-exception';
import type { ApiRequest } from '../http/http-types';

/**
 * The mode the page was drawn in (`?mode=test|live`), for writes whose target only the mode
 * names (a new webhook endpoint, a provider connection): 400 without it, 409 mode_mismatch when
 * another tab has switched the session since, so nothing lands in the mode the person did not see.
 */
export function expectPageMode(req: ApiRequest, raw: unknown): Mode {
  if (raw !== 'test' && raw !== 'live') {
    throw new ApiException(ErrorCodes.ValidationError, 'mode must be test or live', [
      { field: 'mode', message: 'must be test or live (the mode the page shows)' },
    ]);
  }
  const current = req.dashboard!.session.mode;
  if (raw !== current)
    throw new ApiException(ErrorCodes.ModeMismatch, `the session is in ${current} mode now; reload the page`);
  return raw;
}
