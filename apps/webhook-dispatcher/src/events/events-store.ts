import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCodes, PING_EVENT, type EventView, type ListEventsBody, type ListEventsResult, type RpcContext } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { DomainException } from '@payments/platform';

interface EventRow {
  id: string;
  event_type: string;
  mode: string;
  payload: unknown;
  created_at: Date;
}

/** The body a webhook delivery of this event carries; the events API answers the same object. */
export function eventView(e: EventRow): EventView {
  return { id: e.id, event: e.event_type, created_at: e.created_at.toISOString(), mode: e.mode, data: e.payload };
}

const COLUMNS = 'id, event_type, mode, payload, created_at';

/**
 * Reads of a business's events, newest first, paged by a (created_at, id) cursor. Test pings are
 * readable by id (the delivery log names them) but never listed.
 */
@Injectable()
export class EventsStore {
  constructor(private readonly ds: DataSource) {}

  async get(ctx: RpcContext, id: string): Promise<EventView> {
    const [row] = await queryRows<EventRow>(this.ds, `SELECT ${COLUMNS} FROM webhook_events WHERE id = $1 AND business_id = $2 AND mode = $3`, [id, ctx.business_id, ctx.mode]);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no event ${id}`);
    return eventView(row);
  }

  /** The position of a cursor event, which must be one of the caller's listable events. */
  private async cursor(ctx: RpcContext, field: string, id: string): Promise<{ created_at: Date; id: string }> {
    const [row] = await queryRows<{ created_at: Date; id: string }>(
      this.ds,
      'SELECT created_at, id FROM webhook_events WHERE id = $1 AND business_id = $2 AND mode = $3 AND event_type <> $4',
      [id, ctx.business_id, ctx.mode, PING_EVENT],
    );
    if (!row) throw new DomainException(ErrorCodes.ValidationError, `${field} names no event ${id}`, [{ field, message: `names no event ${id}` }]);
    return row;
  }

  async list(ctx: RpcContext, body: ListEventsBody): Promise<ListEventsResult> {
    const params: unknown[] = [ctx.business_id, ctx.mode, PING_EVENT];
    const where = ['business_id = $1', 'mode = $2', 'event_type <> $3'];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (body.type) add((n) => `event_type = ${n}`, body.type);
    const ops = { gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;
    for (const [key, op] of Object.entries(ops)) {
      const bound = body.created[key as keyof typeof ops];
      if (bound) add((n) => `created_at ${op} ${n}::timestamptz`, bound);
    }
    // ending_before pages towards newer events: read them oldest first, then turn the page round.
    const backwards = !body.starting_after && !!body.ending_before;
    const cursorId = body.starting_after ?? body.ending_before;
    if (cursorId) {
      const c = await this.cursor(ctx, body.starting_after ? 'starting_after' : 'ending_before', cursorId);
      params.push(c.created_at, c.id);
      where.push(`(created_at, id) ${backwards ? '>' : '<'} ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(body.limit + 1);
    const order = backwards ? 'created_at ASC, id ASC' : 'created_at DESC, id DESC';
    const rows = await queryRows<EventRow>(this.ds, `SELECT ${COLUMNS} FROM webhook_events WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $${params.length}`, params);
    const has_more = rows.length > body.limit;
    const page = rows.slice(0, body.limit);
    if (backwards) page.reverse();
    return { events: page.map(eventView), has_more };
  }
}
