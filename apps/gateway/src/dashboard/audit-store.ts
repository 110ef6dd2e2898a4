import { Injectable } from '@nestjs/common';
import { DataSource, jsonInsert, queryRows } from '@payments/database';
import type { DashboardApi, Mode } from '@payments/contracts';

export type AuditEntry = DashboardApi.AuditEntry;

export interface AuditRecord {
  business_id: number;
  user_id: number | null;
  actor: string;
  action: string;
  mode: Mode | null;
  target: string | null;
  details?: Record<string, unknown>;
  ip: string;
}

const APPEND = jsonInsert<Required<AuditRecord>>({
  into: 'dashboard_audit_log',
  fields: {
    business_id: 'integer',
    user_id: 'integer',
    actor: 'text',
    action: 'text',
    mode: 'text',
    target: 'text',
    details: 'jsonb',
    ip: 'text',
  },
});

interface AuditRow {
  id: string;
  actor: string;
  action: string;
  mode: Mode | null;
  target: string | null;
  details: Record<string, unknown>;
  ip: string;
  created_at: Date;
}

/** Every read and write of `dashboard_audit_log`: append-only, newest first. */
@Injectable()
export class AuditStore {
  constructor(private readonly ds: DataSource) {}

  async append(r: AuditRecord): Promise<void> {
    await this.ds.query(APPEND.text, APPEND.params({ ...r, details: r.details ?? {} }));
  }

  /** One page, newest first; `before` is the id of the last entry of the previous page. */
  async page(
    businessId: number,
    limit: number,
    before?: string,
  ): Promise<{ entries: AuditEntry[]; has_more: boolean }> {
    const rows = await queryRows<AuditRow>(
      this.ds,
      `SELECT id::text AS id, actor, action, mode, target, details, ip, created_at FROM dashboard_audit_log
       WHERE business_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
       ORDER BY dashboard_audit_log.id DESC LIMIT $3`,
      [businessId, before ?? null, limit + 1],
    );
    const entries = rows.slice(0, limit).map((r): AuditEntry => ({
      id: r.id,
      actor: r.actor,
      action: r.action,
      mode: r.mode,
      target: r.target,
      details: r.details,
      ip: r.ip,
      date_created: r.created_at.toISOString(),
    }));
    return { entries, has_more: rows.length > limit };
  }
}
