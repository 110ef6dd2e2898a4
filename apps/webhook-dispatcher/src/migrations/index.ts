import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { CallbacksAndDeliveries1763900000000 } from './1763900000000-callbacks-and-deliveries';
import { InFlightIndex1764100000000 } from './1764100000000-in-flight-index';
import { SkippedDeliveries1764300000000 } from './1764300000000-skipped-deliveries';
import { EventsApi1764500000000 } from './1764500000000-events-api';
import { EventsRecordedOrder1764700000000 } from './1764700000000-events-recorded-order';
import { EventsRecordedIndex1764800000000 } from './1764800000000-events-recorded-index';
import { EventsDropSourceUnique1764900000000 } from './1764900000000-events-drop-source-unique';
import { DeliveryLockToken1765000000000 } from './1765000000000-delivery-lock-token';
import { EventsTransactionIndex1765300000000 } from './1765300000000-events-transaction-index';
import { DeliveriesDropEventIndex1765400000000 } from './1765400000000-deliveries-drop-event-index';
import { EventsOneTransactionIndex1765500000000 } from './1765500000000-events-one-transaction-index';

export const migrations = [
  InitialSchema1763800000000,
  CallbacksAndDeliveries1763900000000,
  InFlightIndex1764100000000,
  SkippedDeliveries1764300000000,
  EventsApi1764500000000,
  EventsRecordedOrder1764700000000,
  EventsRecordedIndex1764800000000,
  EventsDropSourceUnique1764900000000,
  DeliveryLockToken1765000000000,
  EventsTransactionIndex1765300000000,
  DeliveriesDropEventIndex1765400000000,
  EventsOneTransactionIndex1765500000000,
];
