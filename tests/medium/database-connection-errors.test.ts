import { Client } from 'pg';
import { QueryFailedError, databaseUrl, isConnectionError } from '@payments/database';
import { infra } from '../support/infra';

/**
 * What the real pg driver and server answer when a transaction's connection is dropped between two of its statements (a
 * restart or an administrator's terminate while the consumer's handler runs): the next statement is refused by the
 * driver with a message and no code. It must count as the database being unreachable, so that a consumer backs off and
 * retries its batch whole instead of splitting it into per-partition and per-event retries.
 */
describe('a transaction whose connection the server drops between its statements', () => {
  it('fails its next statement with an error classified as a connection error', async () => {
    const url = databaseUrl(infra().DATABASE_URL, 'postgres');
    const admin = new Client({ connectionString: url });
    const victim = new Client({ connectionString: url });
    await admin.connect();
    await victim.connect();
    // The server's FATAL (57P01), then the end of the socket: the client reports both.
    const dropped = new Promise<Error>((resolve) => victim.on('error', resolve));
    try {
      await victim.query('BEGIN');
      const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      expect(isConnectionError(await dropped)).toBe(true);

      const next = (await victim.query('SELECT 1').catch((e: unknown) => e)) as Error;
      expect(next.message).toBe('Client has encountered a connection error and is not queryable');
      expect(isConnectionError(next)).toBe(true);
      // As the services' DataSource raises it.
      expect(isConnectionError(new QueryFailedError('SELECT 1', [], next))).toBe(true);
    } finally {
      await admin.end();
      await victim.end().catch(() => undefined);
    }
  });
});
