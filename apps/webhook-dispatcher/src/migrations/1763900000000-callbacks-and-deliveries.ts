import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CallbacksAndDeliveries1763900000000 implements MigrationInterface {
  name = 'CallbacksAndDeliveries1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE callbacks (
        id serial PRIMARY KEY,
        business_id integer NOT NULL,
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        url text NOT NULL,
        description text NOT NULL DEFAULT '',
        events text[] NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        failure_count integer NOT NULL DEFAULT 0,
        disabled_reason text,
        last_triggered timestamptz,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query('CREATE INDEX callbacks_business ON callbacks (business_id, mode) WHERE deleted_at IS NULL');
    await q.query(`
      CREATE TABLE deliveries (
        id bigserial PRIMARY KEY,
        public_id text NOT NULL UNIQUE,
        event_id text NOT NULL REFERENCES webhook_events (id),
        callback_id integer NOT NULL REFERENCES callbacks (id),
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        cycle_start integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        enqueued_at timestamptz,
        enqueue_count integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_id, callback_id)
      )`);
    await q.query(
      `CREATE INDEX deliveries_to_enqueue ON deliveries (next_attempt_at)
       WHERE status = 'pending' AND enqueued_at IS NULL`,
    );
    await q.query("CREATE INDEX deliveries_pending ON deliveries (next_attempt_at) WHERE status = 'pending'");
    await q.query('CREATE INDEX deliveries_callback ON deliveries (callback_id, created_at DESC)');
    await q.query(`
      CREATE TABLE delivery_attempts (
        id bigserial PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES deliveries (id),
        attempt integer NOT NULL,
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (delivery_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE delivery_attempts');
    await q.query('DROP TABLE deliveries');
    await q.query('DROP TABLE callbacks');
  }
}
