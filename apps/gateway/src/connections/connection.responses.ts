import { CONNECTION_PROVIDERS, MODES } from '@payments/contracts';
import { Closed, List, Str, StringEnum, type Static } from '@payments/contracts/schemas';
import { PAYMENT_METHOD_CODES } from '@payments/domain';
import { Ok } from '../http/responses';

const MASKED_ACCOUNT =
  'The provider account, masked: its prefix and the last characters of its id (int_…1201, ct_…5E0A, site_…0001)';

/** Answers of /v1/connections (presenter return types and OpenAPI schemas); no credential is ever among them. */
const connectionFields = {
  provider: StringEnum(CONNECTION_PROVIDERS),
  mode: StringEnum(MODES, 'The mode of the key that connected it'),
  account: Str(MASKED_ACCOUNT),
  methods: List(StringEnum(PAYMENT_METHOD_CODES), 'The payment_method_codes this connection serves'),
  notification_url: Str("Give it to the provider as the account's notification (result) URL"),
  date_created: Str(),
  date_updated: Str('Last time the credentials were replaced'),
};
export const ConnectionObject = Closed(connectionFields);
export type ConnectionObject = Static<typeof ConnectionObject>;
export const ConnectionAnswer = Ok(connectionFields);
export type ConnectionAnswer = Static<typeof ConnectionAnswer>;
export const ConnectionList = Ok({ connections: List(ConnectionObject, 'Newest first; at most one per provider') });
export type ConnectionList = Static<typeof ConnectionList>;
export const ConnectionDeleted = Ok({ provider: StringEnum(CONNECTION_PROVIDERS), message: Str() });
export type ConnectionDeleted = Static<typeof ConnectionDeleted>;
