export type Mode = 'test' | 'live';
export const MODES: readonly Mode[] = ['test', 'live'];
export type KeyType = 'secret' | 'public';

/**
 * Largest value of a PostgreSQL `integer` column (serial ids, offsets). Inputs bound for such a
 * column are checked against it at the API so they answer 400/404 instead of reaching the store.
 */
export const PG_INT_MAX = 2_147_483_647;
