import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE businesses (
        id serial PRIMARY KEY,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id serial PRIMARY KEY,
        business_id integer NOT NULL REFERENCES businesses (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        key_type text NOT NULL CHECK (key_type IN ('secret', 'public')),
        key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query('CREATE INDEX api_keys_business ON api_keys (business_id, mode, key_type)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE api_keys');
    await q.query('DROP TABLE businesses');
  }
}
