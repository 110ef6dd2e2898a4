import type { EventEnvelope } from './envelope';
import { EventTypes, type RefundStatusChangedData, type TransactionStatusChangedData } from './events';
import type { SettlementInvoiceChangedData } from './ledger';

/** The data of each consumed event type; consumers decode it against event-schemas.ts before a handler sees it. */
export interface ConsumedEventData {
  [EventTypes.TransactionStatusChanged]: TransactionStatusChangedData;
  [EventTypes.RefundStatusChanged]: RefundStatusChangedData;
  [EventTypes.SettlementInvoiceChanged]: SettlementInvoiceChangedData;
}
export type ConsumedType = keyof ConsumedEventData;
export type ConsumedEvent<T extends ConsumedType> = EventEnvelope<T, ConsumedEventData[T]>;
