import { Injectable } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import { AuditStore } from './audit-store';

/** Records a dashboard action of the signed-in user: who, what, on what, when, from which address. */
@Injectable()
export class Audit {
  constructor(private readonly store: AuditStore) {}

  async record(req: ApiRequest, action: string, target: string | null, details: Record<string, unknown> = {}): Promise<void> {
    const d = req.dashboard;
    if (!d) throw new Error('Audit.record outside a dashboard session');
    await this.store.append({ business_id: d.user.business_id, user_id: d.user.id, actor: d.user.email, action, mode: d.session.mode, target, details, ip: req.ip });
  }

  /** An action without a session (a sign-in, good or bad) of a known user. */
  async recordFor(req: ApiRequest, user: { id: number; business_id: number; email: string }, action: string): Promise<void> {
    await this.store.append({ business_id: user.business_id, user_id: user.id, actor: user.email, action, mode: null, target: null, ip: req.ip });
  }
}
