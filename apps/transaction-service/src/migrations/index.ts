import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { RefundsAndLinks1763900000000 } from './1763900000000-refunds-and-links';
import { CheckoutAttempts1764100000000 } from './1764100000000-checkout-attempts';
import { LinkActivityAndRefundReasons1764300000000 } from './1764300000000-link-activity-and-refund-reasons';
import { MetadataAndDescriptions1764600000000 } from './1764600000000-metadata-and-descriptions';
import { IdempotencyKeys1764900000000 } from './1764900000000-idempotency-keys';
import { ProviderConnections1765000000000 } from './1765000000000-provider-connections';
import { ProviderPayments1765100000000 } from './1765100000000-provider-payments';
import { ProviderRefunds1765200000000 } from './1765200000000-provider-refunds';

/** In order; a new migration is appended here. */
export const migrations = [
  InitialSchema1763800000000,
  RefundsAndLinks1763900000000,
  CheckoutAttempts1764100000000,
  LinkActivityAndRefundReasons1764300000000,
  MetadataAndDescriptions1764600000000,
  IdempotencyKeys1764900000000,
  ProviderConnections1765000000000,
  ProviderPayments1765100000000,
  ProviderRefunds1765200000000,
];
