import { BPS_WHOLE, MAX_AMOUNT } from '@payments/money';
import {
  DESCRIPTION_MAX_LENGTH,
  METADATA_KEY_MAX_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_LENGTH,
  descriptionProblem,
  metadataProblems,
  type MetadataInput,
} from '@payments/domain';
import { crossField, custom, isHttpUrl, isInt, max, min } from './request-rules';
import { conditional, optional, required } from './request-schema';

/** Fields several requests share. */

/**
 * An integer in [least, most] with one message for every broken rule, e.g. "limit must be an
 * integer from 1 to 500". `fromQuery` converts the query string's text first (bodies never are).
 */
export function integerInRange(field: string, least: number, most: number, { fromQuery = false } = {}) {
  const message = `${field} must be an integer from ${least} to ${most}`;
  return optional([max(most, message), min(least, message), isInt(message)], fromQuery ? { coerce: 'number' } : {});
}

/** An amount in minor units: a positive integer up to MAX_AMOUNT. */
export const amountRules = () => {
  const positive = 'amount must be a positive integer in minor units';
  return [max(MAX_AMOUNT, `amount must be at most ${MAX_AMOUNT}`), min(1, positive), isInt(positive)] as const;
};

/** An optional redirect URL field (success_url, failure_url): http or https, host without a TLD allowed. */
export const redirectUrl = (field: string) => optional([isHttpUrl(`${field} must be a valid http(s) URL`)]);

/**
 * A percentage split's value is in basis points, at most 100 %. `typeField` names the sibling
 * field that says whether the split is a percentage (`type` on a link's split, `split_type` on a
 * split config).
 */
export const percentageInBasisPoints = (typeField: string) =>
  crossField(
    'percentageInBasisPoints',
    (v, o) => o[typeField] !== 'percentage' || typeof v !== 'number' || v <= BPS_WHOLE,
    (p) => `${p} must be at most ${BPS_WHOLE} basis points for a percentage split`,
  );

const METADATA_DESCRIPTION =
  `Your key-value pairs (Stripe's rules): at most ${METADATA_MAX_KEYS} keys of 1 to ${METADATA_KEY_MAX_LENGTH} ` +
  `characters without [ or ], string values of at most ${METADATA_VALUE_MAX_LENGTH} characters, nothing nested. ` +
  'A key set to "" is not kept (on an update: removed); null or "" means none (on an update: remove all). ' +
  'Returned as {} when none.';

/**
 * An optional `metadata` field: the shared rules of @payments/domain (Stripe's limits), each
 * broken rule reported against `metadata` or `metadata.<key>`.
 */
export const metadataField = () =>
  optional([
    {
      ...custom<MetadataInput>(
        'metadata',
        (v) => metadataProblems(v).length === 0,
        (p, v) => `${p} ${metadataProblems(v, p)[0]?.message}`,
        {
          anyOf: [
            {
              type: 'object',
              maxProperties: METADATA_MAX_KEYS,
              propertyNames: { minLength: 1, maxLength: METADATA_KEY_MAX_LENGTH, pattern: '^[^\\[\\]]*$' },
              additionalProperties: { type: 'string', maxLength: METADATA_VALUE_MAX_LENGTH },
            },
            { const: '' },
          ],
          description: METADATA_DESCRIPTION,
        },
      ),
      explain: (value: unknown, field: string) => metadataProblems(value, field),
    },
  ]);

const descriptionRule = (needed: boolean) =>
  custom<string>(
    'description',
    (v) => descriptionProblem(v, 'description', { required: needed }) === null,
    (p, v) => `${p} ${descriptionProblem(v, p, { required: needed })?.message ?? 'is invalid'}`,
    needed
      ? { type: 'string', minLength: 1, maxLength: DESCRIPTION_MAX_LENGTH }
      : {
          type: 'string',
          maxLength: DESCRIPTION_MAX_LENGTH,
          description:
            'Free text, shown to the customer on the hosted checkout page; "" or null means none (returned as null)',
        },
  );

/** An optional `description`: a string of at most DESCRIPTION_MAX_LENGTH characters, or null. */
export const descriptionField = () => optional([descriptionRule(false)]);

/** A required `description` (a payment link's): 1 to DESCRIPTION_MAX_LENGTH characters. */
export const requiredDescription = () => required([descriptionRule(true)]);

/** A link's description on an update: absent leaves it as it is, but it can never be removed (null or ""). */
export const omittableDescription = () => conditional([descriptionRule(true)], (_o, v) => v !== undefined);
