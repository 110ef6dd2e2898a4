import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { RedirectOrigins1764000000000 } from './1764000000000-redirect-origins';

export const migrations = [InitialSchema1763800000000, RedirectOrigins1764000000000];
