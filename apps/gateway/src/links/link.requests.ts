import { PG_INT_MAX, SPLIT_TYPES } from '@payments/contracts';
import type { Static } from '@payments/contracts/schemas';
import { SUPPORTED_CURRENCIES } from '@payments/money';
import { cursorFields } from '../http/cursor-query';
import {
  amountRules,
  integerInRange,
  metadataField,
  omittableDescription,
  percentageInBasisPoints,
  redirectUrl,
  requiredDescription,
} from '../http/request-fields';
import { arrayMaxSize, isArray, isIn, isInt, isLength, isString, max, min } from '../http/request-rules';
import { optional, optionalList, required, requestBody, requestQuery } from '../http/request-schema';

/** Requests of /v1/links. Rules of one rank are reported in the order listed. */

const existing = 'business_id must be an existing business';
const positive = 'value must be a positive integer';

/** One split of a payment link. */
export const LinkSplitDto = requestBody('LinkSplitDto', {
  business_id: required([max(PG_INT_MAX, existing), min(1, existing), isInt('business_id must be an integer')]),
  type: required([isIn(SPLIT_TYPES, `type must be ${SPLIT_TYPES.join(' or ')}`)]),
  value: required([percentageInBasisPoints('type'), min(1, positive), isInt(positive)]),
  description: optional([isLength(0, 500, 'description must be at most 500 characters'), isString()]),
});
export type LinkSplitDto = Static<typeof LinkSplitDto>;

/** POST /v1/links body. */
export const CreateLinkDto = requestBody('CreateLinkDto', {
  amount: required(amountRules()),
  currency: required([isIn(SUPPORTED_CURRENCIES, `currency must be one of ${SUPPORTED_CURRENCIES.join(', ')}`)]),
  description: requiredDescription(),
  metadata: metadataField(),
  splits: optionalList(
    [arrayMaxSize(10, 'splits may have at most 10 entries'), isArray('splits must be an array')],
    LinkSplitDto,
  ),
  success_url: redirectUrl('success_url'),
  failure_url: redirectUrl('failure_url'),
});
export type CreateLinkDto = Static<typeof CreateLinkDto>;

/**
 * POST /v1/links/{id} body: Stripe-style update. Absent fields stay as they are; a metadata key
 * set to "" is removed, `metadata: null` or `""` removes them all. A link's description is required,
 * so it can be changed but not removed.
 */
export const UpdateLinkDto = requestBody('UpdateLinkDto', {
  description: omittableDescription(),
  metadata: metadataField(),
});
export type UpdateLinkDto = Static<typeof UpdateLinkDto>;

/** A payment link id as the API hands it out; anything else cannot name a link (404 without an RPC). */
export const LINK_ID = /^plink_[0-9A-Za-z]{10,40}$/;

/** Default and largest page of GET /v1/links. */
export const LINKS_PAGE_DEFAULT = 10;
export const LINKS_PAGE_MAX = 100;

/** GET /v1/links query: newest first; `starting_after` pages to older links, `ending_before` to newer ones. */
export const ListLinksQuery = requestQuery('ListLinksQuery', {
  limit: integerInRange('limit', 1, LINKS_PAGE_MAX, { fromQuery: true }),
  ...cursorFields({ pattern: LINK_ID, noun: 'a payment link id (plink_…)' }),
});
export type ListLinksQuery = Static<typeof ListLinksQuery>;
