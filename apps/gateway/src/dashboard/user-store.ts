import { Injectable } from '@nestjs/common';
import { DataSource, queryRows } from '@payments/database';
import type { Role } from './roles';

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

const toUser = (r: UserRow): DashboardUser => ({ id: r.id, business_id: r.business_id, business_name: r.business_name, email: r.email, role: r.role, date_created: r.created_at.toISOString() });

const SELECT_USER = `SELECT u.id, u.business_id, b.name AS business_name, u.email, u.role, u.created_at, u.password_hash
  FROM dashboard_users u JOIN businesses b ON b.id = u.business_id`;

/** Every read and write of `dashboard_users`. E-mails are stored lower-cased (one account per address). */
@Injectable()
export class DashboardUserStore {
  constructor(private readonly ds: DataSource) {}

  /** The new user; null when the e-mail already has an account, undefined when the business does not exist. */
  async insert(businessId: number, email: string, passwordHash: string, role: Role, invitedBy: number | null): Promise<DashboardUser | null | undefined> {
    const [row] = await queryRows<{ id: number }>(
      this.ds,
      `INSERT INTO dashboard_users (business_id, email, password_hash, role, invited_by)
       SELECT id, $2, $3, $4, $5 FROM businesses WHERE id = $1
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [businessId, email.toLowerCase(), passwordHash, role, invitedBy],
    );
    if (row) return (await this.byId(row.id)) ?? undefined;
    const [business] = await queryRows<{ id: number }>(this.ds, 'SELECT id FROM businesses WHERE id = $1', [businessId]);
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
    const rows = await queryRows<UserRow>(this.ds, `${SELECT_USER} WHERE u.business_id = $1 ORDER BY u.id`, [businessId]);
    return rows.map(toUser);
  }
}
