import {
  INVOICE_REFERENCE_PATTERN,
  PG_INT_MAX,
  SPLIT_DESCRIPTION_MAX,
  SPLIT_ROLES,
  SPLIT_TYPES,
} from '@payments/contracts';
import type { Static } from '@payments/contracts/schemas';
import { MAX_AMOUNT, SUPPORTED_CURRENCIES } from '@payments/money';
import { cursorFields } from '../http/cursor-query';
import { integerInRange, percentageInBasisPoints } from '../http/request-fields';
import { custom, isIn, isInt, isString, max, maxLength, min } from '../http/request-rules';
import { conditional, optional, required, requestBody, requestQuery } from '../http/request-schema';

/** Requests of /v1/splits. Rules of one rank are reported in the order listed. */

/** Largest page of GET /v1/splits/ledger and /v1/splits/invoices (docs/api.md). */
export const PAGE_LIMIT_MAX = 500;
export const PAGE_LIMIT_DEFAULT = 100;
/** Largest page of GET /v1/splits/config when a limit is given. */
export const SPLIT_CONFIG_PAGE_MAX = 100;

/** UUID_PATTERN without its `i` flag (JSON Schema patterns have none): both cases spelled out. */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const skip = () => integerInRange('skip', 0, PG_INT_MAX, { fromQuery: true });

/** GET /v1/splits/ledger: cursors are ledger entry ids (UUIDs). */
export const LedgerPageQuery = requestQuery('LedgerPageQuery', {
  limit: integerInRange('limit', 1, PAGE_LIMIT_MAX, { fromQuery: true }),
  ...cursorFields({ pattern: UUID, noun: 'a ledger entry public_id (a UUID)' }),
  skip: skip(),
});
export type LedgerPageQuery = Static<typeof LedgerPageQuery>;

/** GET /v1/splits/invoices: cursors are invoice references. */
export const InvoicePageQuery = requestQuery('InvoicePageQuery', {
  limit: integerInRange('limit', 1, PAGE_LIMIT_MAX, { fromQuery: true }),
  ...cursorFields({ pattern: INVOICE_REFERENCE_PATTERN, noun: 'an invoice reference (INV-…)' }),
  skip: skip(),
});
export type InvoicePageQuery = Static<typeof InvoicePageQuery>;

/** The dashboard's invoice page: how many of its entries (oldest first) to pass over. */
export const InvoiceEntriesQuery = requestQuery('InvoiceEntriesQuery', { skip: skip() });
export type InvoiceEntriesQuery = Static<typeof InvoiceEntriesQuery>;

/** GET /v1/splits/config: every config without a limit (as before cursors); cursors are config public_ids. */
export const SplitConfigPageQuery = requestQuery('SplitConfigPageQuery', {
  limit: integerInRange('limit', 1, SPLIT_CONFIG_PAGE_MAX, { fromQuery: true }),
  ...cursorFields({ pattern: UUID, noun: 'a split config public_id (a UUID)' }),
});
export type SplitConfigPageQuery = Static<typeof SplitConfigPageQuery>;

const VALUE = 'split_value must be a positive integer';
const TYPE = `split_type must be one of ${SPLIT_TYPES.join(', ')}`;
const ROLE = `split_role must be one of ${SPLIT_ROLES.join(', ')}`;
const DESCRIPTION = `description must be a string of at most ${SPLIT_DESCRIPTION_MAX} characters`;
const PARTNER = 'partner_business_id must be an existing business';

const splitValue = () =>
  [
    percentageInBasisPoints('split_type'),
    max(MAX_AMOUNT, `split_value must be at most ${MAX_AMOUNT}`),
    min(1, VALUE),
    isInt(VALUE),
  ] as const;
const description = () => optional([maxLength(SPLIT_DESCRIPTION_MAX, DESCRIPTION), isString(DESCRIPTION)]);

/** POST /v1/splits/config body. */
export const CreateSplitConfigDto = requestBody('CreateSplitConfigDto', {
  partner_business_id: required([
    max(PG_INT_MAX, PARTNER),
    min(1, PARTNER),
    isInt('partner_business_id must be an integer'),
  ]),
  split_type: required([isIn(SPLIT_TYPES, TYPE)]),
  split_value: required(splitValue()),
  split_role: required([isIn(SPLIT_ROLES, ROLE)]),
  currency: required([isIn(SUPPORTED_CURRENCIES, `currency must be one of ${SUPPORTED_CURRENCIES.join(', ')}`)]),
  description: description(),
});
export type CreateSplitConfigDto = Static<typeof CreateSplitConfigDto>;

/** A field the PUT refuses by name (rather than as merely unknown). */
const notUpdatable = () =>
  conditional(
    [
      custom<never>(
        'notUpdatable',
        () => false,
        (p) => `${p} cannot be changed; deactivate this split config and create a new one`,
        {
          not: {},
          description: 'Cannot be changed: deactivate this split config and create a new one',
        },
      ),
    ],
    (_o, v) => v !== undefined,
  );

/** PUT /v1/splits/config/{public_id} body: every field optional; partner and currency are refused. */
export const UpdateSplitConfigDto = requestBody('UpdateSplitConfigDto', {
  partner_business_id: notUpdatable(),
  currency: notUpdatable(),
  split_type: optional([isIn(SPLIT_TYPES, TYPE)]),
  split_value: optional(splitValue()),
  split_role: optional([isIn(SPLIT_ROLES, ROLE)]),
  description: description(),
});
export type UpdateSplitConfigDto = Static<typeof UpdateSplitConfigDto>;
