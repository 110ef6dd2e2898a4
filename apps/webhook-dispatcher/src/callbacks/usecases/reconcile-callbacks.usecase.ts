import { Injectable } from '@nestjs/common';
import { reconcilePageSize, type ReconcileCallbacksResult, type ReconcilePageBody } from '@payments/contracts';
import { CallbackStore } from '../callback-store';

/** For `ops reconcile`: a page of callbacks in id order. */
@Injectable()
export class ReconcileCallbacksUseCase {
  constructor(private readonly callbacks: CallbackStore) {}

  async execute(body: ReconcilePageBody): Promise<ReconcileCallbacksResult> {
    const limit = reconcilePageSize(body.limit);
    const after = body.after !== null && /^\d{1,10}$/.test(body.after) ? Number(body.after) : 0;
    const rows = await this.callbacks.reconcilePage(after, limit);
    return {
      callbacks: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next: rows.length === limit ? String(rows[rows.length - 1].id) : null,
    };
  }
}
