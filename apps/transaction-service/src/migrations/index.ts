import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/** In order; a new migration is appended here (CI checks entities against migrations). */
export const migrations = [InitialSchema1763800000000];
