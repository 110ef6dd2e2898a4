import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owners may remove dashboard users: the audit log keeps a removed user's entries (their e-mail
 * stays in `actor`) with user_id set to NULL, and people they invited keep their accounts
 * (invited_by set to NULL). The index lets the delete find those audit entries without a scan.
 */
export class DashboardUserRemoval1765400000000 implements MigrationInterface {
  name = 'DashboardUserRemoval1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE dashboard_audit_log DROP CONSTRAINT dashboard_audit_log_user_id_fkey');
    await q.query(
      'ALTER TABLE dashboard_audit_log ADD CONSTRAINT dashboard_audit_log_user_id_fkey ' +
        'FOREIGN KEY (user_id) REFERENCES dashboard_users (id) ON DELETE SET NULL',
    );
    await q.query('CREATE INDEX dashboard_audit_log_user ON dashboard_audit_log (user_id) WHERE user_id IS NOT NULL');
    await q.query('ALTER TABLE dashboard_users DROP CONSTRAINT dashboard_users_invited_by_fkey');
    await q.query(
      'ALTER TABLE dashboard_users ADD CONSTRAINT dashboard_users_invited_by_fkey ' +
        'FOREIGN KEY (invited_by) REFERENCES dashboard_users (id) ON DELETE SET NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE dashboard_users DROP CONSTRAINT dashboard_users_invited_by_fkey');
    await q.query(
      'ALTER TABLE dashboard_users ADD CONSTRAINT dashboard_users_invited_by_fkey ' +
        'FOREIGN KEY (invited_by) REFERENCES dashboard_users (id)',
    );
    await q.query('DROP INDEX dashboard_audit_log_user');
    await q.query('ALTER TABLE dashboard_audit_log DROP CONSTRAINT dashboard_audit_log_user_id_fkey');
    await q.query(
      'ALTER TABLE dashboard_audit_log ADD CONSTRAINT dashboard_audit_log_user_id_fkey ' +
        'FOREIGN KEY (user_id) REFERENCES dashboard_users (id)',
    );
  }
}
