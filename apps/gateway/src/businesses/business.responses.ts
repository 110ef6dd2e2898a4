import { MODES, type KeyType } from '@payments/contracts';
import { Closed, Int, List, Str, StringEnum, type Static } from '@payments/contracts/schemas';
import { Ok } from '../http/responses';

/** Answers of the business admin and settings APIs: the handlers' return types and the OpenAPI schemas. */
const Keys = Closed({ secret: Str(), public: Str() });

export const BusinessCreated = Ok({
  business: Closed({ id: Int(), name: Str() }),
  api_keys: Closed({ test: Keys, live: Keys }),
});
export type BusinessCreated = Static<typeof BusinessCreated>;

export const KeyRolled = Ok({
  mode: StringEnum(MODES),
  type: StringEnum(['secret', 'public'] as const satisfies readonly KeyType[]),
  api_key: Str(),
  previous_key_expires_at: Str(),
});
export type KeyRolled = Static<typeof KeyRolled>;

export const RedirectOrigins = Ok({ redirect_origins: List(Str()) });
export type RedirectOrigins = Static<typeof RedirectOrigins>;

export const RedirectOriginsSet = Ok({ message: Str(), redirect_origins: List(Str()) });
export type RedirectOriginsSet = Static<typeof RedirectOriginsSet>;
