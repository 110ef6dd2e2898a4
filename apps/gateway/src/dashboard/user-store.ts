import { Injectable } from '@nestjs/common';
import { DataSource, queryRows, type EntityManager } from '@payments/database';
import type { Role } from './roles';
import { membershipProblem, type MembershipProblem } from './user-changes';

export interface DashboardUser {
  id: number;
  business_id: number;
  business_name: string;
  email: string;
  role: Role;
  date_created: string;
}

interface UserRow {
  id: number;
  business_id: number;
  business_name: string;
  email: string;
  role: Role;
  created_at: Date;
  password_hash: string;
}

const toUser = (r: UserRow): DashboardUser => ({
  id: r.id,
  business_id: r.business_id,
  business_name: r.business_name,
  email: r.email,
  role: r.role,
  date_created: r.created_at.toISOString(),
});

const SELECT_USER = `SELECT u.id, u.business_id, b.name AS business_name, u.email, u.role, u.created_at, u.password_hash
  FROM dashboard_users u JOIN businesses b ON b.id = u.business_id`;

/** Every read and write of `dashboard_users`. E-mails are stored lower-cased (one account per address). */
@Injectable()
export class DashboardUserStore {
  constructor(private readonly ds: DataSource) {}

  /** The new user; null when the e-mail already has an account, undefined when the business does not exist. */
  async insert(
    businessId: number,
    email: string,
    passwordHash: string,
    role: Role,
    invitedBy: number | null,
  ): Promise<DashboardUser | null | undefined> {
    const [row] = await queryRows<{ id: number }>(
      this.ds,
      `INSERT INTO dashboard_users (business_id, email, password_hash, role, invited_by)
       SELECT id, $2, $3, $4, $5 FROM businesses WHERE id = $1
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [businessId, email.toLowerCase(), passwordHash, role, invitedBy],
    );
    if (row) return (await this.byId(row.id)) ?? undefined;
    const [business] = await queryRows<{ id: number }>(this.ds, 'SELECT id FROM businesses WHERE id = $1', [
      businessId,
    ]);
    return business ? null : undefined;
  }

  /** The user and the stored password hash, for signing in. */
  async forLogin(email: string): Promise<{ user: DashboardUser; passwordHash: string } | null> {
    const [row] = await queryRows<UserRow>(this.ds, `${SELECT_USER} WHERE u.email = $1`, [email.toLowerCase()]);
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  async byId(id: number): Promise<DashboardUser | null> {
    const [row] = await queryRows<UserRow>(this.ds, `${SELECT_USER} WHERE u.id = $1`, [id]);
    return row ? toUser(row) : null;
  }

  async ofBusiness(businessId: number): Promise<DashboardUser[]> {
    const rows = await queryRows<UserRow>(this.ds, `${SELECT_USER} WHERE u.business_id = $1 ORDER BY u.id`, [
      businessId,
    ]);
    return rows.map(toUser);
  }

  /**
   * Gives a user of the business another role; refused (and nothing changed) for the actor's own
   * account, a user of another business, or the business's last owner (user-changes.ts).
   */
  changeRole(
    businessId: number,
    actorId: number,
    userId: number,
    role: Role,
  ): Promise<{ user: DashboardUser; from: Role } | { problem: Exclude<MembershipProblem, null> }> {
    return this.ds.transaction(async (m) => {
      const users = await this.lockBusinessUsers(m, businessId);
      const problem = membershipProblem(actorId, userId, users, role);
      if (problem) return { problem };
      const from = users.find((u) => u.id === userId)!.role;
      await m.query('UPDATE dashboard_users SET role = $2 WHERE id = $1', [userId, role]);
      const [row] = await queryRows<UserRow>(m, `${SELECT_USER} WHERE u.id = $1`, [userId]);
      return { user: toUser(row), from };
    });
  }

  /** Deletes a user of the business, under the same rules as changeRole; their audit entries keep their e-mail. */
  remove(
    businessId: number,
    actorId: number,
    userId: number,
  ): Promise<{ user: DashboardUser } | { problem: Exclude<MembershipProblem, null> }> {
    return this.ds.transaction(async (m) => {
      const users = await this.lockBusinessUsers(m, businessId);
      const problem = membershipProblem(actorId, userId, users, 'removed');
      if (problem) return { problem };
      const [row] = await queryRows<UserRow>(m, `${SELECT_USER} WHERE u.id = $1`, [userId]);
      // Audit entries (user_id) and users they invited (invited_by) are set to NULL by the foreign keys.
      await m.query('DELETE FROM dashboard_users WHERE id = $1', [userId]);
      return { user: toUser(row) };
    });
  }

  /** Every user of the business, locked until the transaction ends: one business's user changes run one at a time. */
  private lockBusinessUsers(m: EntityManager, businessId: number): Promise<{ id: number; role: Role }[]> {
    return queryRows<{ id: number; role: Role }>(
      m,
      'SELECT id, role FROM dashboard_users WHERE business_id = $1 ORDER BY id FOR UPDATE',
      [businessId],
    );
  }
}
