import { Injectable } from '@nestjs/common';
import { rootLogger } from '@payments/platform';
import type { ApiRequest } from '../http/http-types';
import { AuditStore, type AuditRecord } from './audit-store';

/**
 * Records a dashboard action of the signed-in user: who, what, on what, when, from which address.
 * Actions are recorded once they are done (a refund, a key roll): a record that cannot be written
 * is logged as an error (without the actor's e-mail) instead of failing a request whose action is
 * already applied, which the user would then retry.
 */
@Injectable()
export class Audit {
  constructor(private readonly store: AuditStore) {}

  async record(
    req: ApiRequest,
    action: string,
    target: string | null,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const d = req.dashboard;
    if (!d) throw new Error('Audit.record outside a dashboard session');
    await this.append({
      business_id: d.user.business_id,
      user_id: d.user.id,
      actor: d.user.email,
      action,
      mode: d.session.mode,
      target,
      details,
      ip: req.ip,
    });
  }

  /** An action without a session (a sign-in, good or bad) of a known user. */
  async recordFor(
    req: ApiRequest,
    user: { id: number; business_id: number; email: string },
    action: string,
  ): Promise<void> {
    await this.append({
      business_id: user.business_id,
      user_id: user.id,
      actor: user.email,
      action,
      mode: null,
      target: null,
      ip: req.ip,
    });
  }

  private async append(entry: AuditRecord): Promise<void> {
    try {
      await this.store.append(entry);
    } catch (err) {
      const { business_id, user_id, action, mode, target } = entry;
      rootLogger().error(
        { err: (err as Error).message, business_id, user_id, action, mode, target },
        'audit record not written',
      );
    }
  }
}
