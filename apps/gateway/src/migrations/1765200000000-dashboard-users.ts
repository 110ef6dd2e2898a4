import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The merchant dashboard's users (people of a business who sign in with an e-mail and a
 * password) and its audit log (every action taken in the dashboard: who, what, when, from where).
 * Sessions are not here: they live in Redis (apps/gateway/src/dashboard/session-store.ts).
 */
export class DashboardUsers1765200000000 implements MigrationInterface {
  name = 'DashboardUsers1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_users (
        id serial PRIMARY KEY,
        business_id integer NOT NULL REFERENCES businesses (id),
        email text NOT NULL UNIQUE CHECK (length(email) BETWEEN 3 AND 254),
        password_hash text NOT NULL CHECK (password_hash LIKE 'scrypt$%'),
        role text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
        invited_by integer REFERENCES dashboard_users (id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX dashboard_users_business ON dashboard_users (business_id)');
    await q.query(`
      CREATE TABLE dashboard_audit_log (
        id bigserial PRIMARY KEY,
        business_id integer NOT NULL REFERENCES businesses (id),
        user_id integer REFERENCES dashboard_users (id),
        actor text NOT NULL,
        action text NOT NULL,
        mode text CHECK (mode IN ('test', 'live')),
        target text,
        details jsonb NOT NULL DEFAULT '{}',
        ip text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX dashboard_audit_log_business ON dashboard_audit_log (business_id, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE dashboard_audit_log');
    await q.query('DROP TABLE dashboard_users');
  }
}
