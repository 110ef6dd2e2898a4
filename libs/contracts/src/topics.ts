/**
 * Kafka topic names. Renaming one breaks running consumers and the replay tooling:
 * add a new topic and migrate instead.
 */
export const Topics = {
  TransactionStatusChanged: 'transaction.status_changed',
  RefundStatusChanged: 'refund.status_changed',
  LedgerEntryCreated: 'ledger.entry_created',
  SettlementInvoiceChanged: 'settlement.invoice_changed',
} as const;
export type Topic = (typeof Topics)[keyof typeof Topics];

export const ALL_TOPICS: readonly Topic[] = Object.values(Topics);

/** Consumer groups. The group id is the consumer's identity in the inbox and in Kafka offsets. */
export const ConsumerGroups = {
  SplitLedger: 'split-ledger-service',
  WebhookDispatcher: 'webhook-dispatcher',
} as const;
export type ConsumerGroup = (typeof ConsumerGroups)[keyof typeof ConsumerGroups];

/** Dead-letter topic of a consumer group: messages that still fail after their retries. */
export function deadLetterTopic(group: string): string {
  return `${group}.dlq`;
}

/** Applies the deployment's namespace prefix (KAFKA_TOPIC_PREFIX) to a topic or group name. */
export function prefixed(prefix: string, name: string): string {
  return prefix ? `${prefix}${name}` : name;
}
