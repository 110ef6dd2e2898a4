import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, queryRows } from '@payments/database';

/** Every read and write of the gateway's `businesses` table. */
@Injectable()
export class BusinessStore {
  constructor(private readonly ds: DataSource) {}

  async insert(m: EntityManager, name: string): Promise<{ id: number; name: string }> {
    const [business] = await queryRows<{ id: number; name: string }>(
      m,
      'INSERT INTO businesses (name) VALUES ($1) RETURNING id, name',
      [name],
    );
    return business;
  }

  /** Locks the business row for the caller's DB transaction; false when there is no such business. */
  async lock(m: EntityManager, id: number): Promise<boolean> {
    const found = await queryRows<{ id: number }>(m, 'SELECT id FROM businesses WHERE id = $1 FOR UPDATE', [id]);
    return found.length > 0;
  }

  /** The ids among `ids` that are businesses. */
  async existing(ids: number[]): Promise<Set<number>> {
    const rows = await queryRows<{ id: number }>(this.ds, 'SELECT id FROM businesses WHERE id = ANY($1::int[])', [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /** The names of the businesses among `ids` (one query, however many), keyed by id; unknown ids are left out. */
  async names(ids: number[]): Promise<Map<number, string>> {
    const rows = await queryRows<{ id: number; name: string }>(
      this.ds,
      'SELECT id, name FROM businesses WHERE id = ANY($1::int[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async name(id: number): Promise<string | null> {
    const [row] = await queryRows<{ name: string }>(this.ds, 'SELECT name FROM businesses WHERE id = $1', [id]);
    return row?.name ?? null;
  }

  /** Null when there is no such business. */
  async redirectOrigins(id: number): Promise<string[] | null> {
    const [row] = await queryRows<{ redirect_origins: string[] }>(
      this.ds,
      'SELECT redirect_origins FROM businesses WHERE id = $1',
      [id],
    );
    return row?.redirect_origins ?? null;
  }

  /** Null when there is no such business. */
  async setRedirectOrigins(id: number, origins: string[]): Promise<string[] | null> {
    const [row] = await queryRows<{ redirect_origins: string[] }>(
      this.ds,
      'UPDATE businesses SET redirect_origins = $2 WHERE id = $1 RETURNING redirect_origins',
      [id, origins],
    );
    return row?.redirect_origins ?? null;
  }
}
