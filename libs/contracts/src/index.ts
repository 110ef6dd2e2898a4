export * from './common';
export * from './topics';
export * from './envelope';
export * from './events';
export * from './consumed-events';
export * from './errors';
export * from './rpc';
export * from './connections';
export * from './webhooks';
export * from './ledger';
export * from './reconcile';
export * from './admin-rpc';
export * from './replay';
export * from './replay-bundle';
export * from './webhook-events';
export * from './webhook-signature';
// Types only: the schema values load TypeBox and live behind `@payments/contracts/schemas`.
export type {
  PayoutEventData,
  PingEventData,
  RefundEventData,
  TransactionEventData,
  WebhookEventBody,
  WebhookEventType,
} from './webhook-payloads';
export * from './webhook-payload-builders';
export * from './annotations';
export * from './provider-notifications';
// Types only: the dashboard API's answers (the dashboard app imports that file alone, through
// `@payments/contracts/dashboard-api`).
import type * as DashboardApi from './dashboard-api';
export type { DashboardApi };
