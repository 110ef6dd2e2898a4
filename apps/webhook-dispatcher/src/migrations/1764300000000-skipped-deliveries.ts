import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `skipped` deliveries: an event raised while its callback is disabled is recorded (recovered later), not dropped.
 * `failing_since` lets auto-disable require failures over a minimum span. Plus an index for reconciliation's lookups.
 */
export class SkippedDeliveries1764300000000 implements MigrationInterface {
  name = 'SkippedDeliveries1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check');
    await q.query(
      `ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check
       CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled', 'skipped'))`,
    );
    await q.query('ALTER TABLE callbacks ADD COLUMN failing_since timestamptz');
    await q.query('UPDATE callbacks SET failing_since = COALESCE(last_triggered, now()) WHERE failure_count > 0');
    // Recovery looks for a callback's failed and skipped deliveries since a time.
    await q.query(
      `CREATE INDEX deliveries_recoverable ON deliveries (callback_id, created_at)
       WHERE status IN ('failed', 'skipped')`,
    );
    // Reconciliation looks up the transaction events of a page of transactions.
    await q.query(
      `CREATE INDEX webhook_events_transaction ON webhook_events ((payload->>'transaction_id'), created_at)
       WHERE event_type LIKE 'transaction.%'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_events_transaction');
    await q.query('DROP INDEX deliveries_recoverable');
    await q.query('ALTER TABLE callbacks DROP COLUMN failing_since');
    await q.query("UPDATE deliveries SET status = 'failed' WHERE status = 'skipped'");
    await q.query('ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check');
    await q.query(
      `ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check
       CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled'))`,
    );
  }
}
