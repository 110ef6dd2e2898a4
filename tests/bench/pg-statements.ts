import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { cpuMs } from './memory';

/** CPU ms of each process of the local server, with its database (backends) or 'background', from /proc. */
function serverCpu(postmaster: number): Map<number, { key: string; ms: number }> {
  const out = new Map<number, { key: string; ms: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (Number(entry) !== postmaster && ppid !== postmaster) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const key = /^postgres: \S+ (\S+) \d/.exec(cmd)?.[1] ?? 'background';
      out.set(Number(entry), { key, ms: cpuMs(Number(entry)) });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
}

/**
 * BENCH_PG_STATEMENTS=<dir>: per measured step of part (a), `<dir>/<step>.json` with the request count and, per
 * database and statement, calls, rows and execution time from pg_stat_statements (the server must preload it). With
 * a local server also its backends' CPU by database: the whole server's, so meaningful only on an otherwise idle one.
 */
export class PgStatements {
  private cpuBefore = new Map<number, { key: string; ms: number }>();

  private constructor(
    private readonly client: Client,
    private readonly dir: string,
    private readonly postmaster: number,
  ) {}

  static async open(serverUrl: string, dir: string | undefined): Promise<PgStatements | undefined> {
    if (!dir) return undefined;
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    let postmaster = 0;
    try {
      postmaster = Number(readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
    } catch {
      // Not a local server: statements only.
    }
    return new PgStatements(client, dir, postmaster);
  }

  async reset(): Promise<void> {
    await this.client.query('SELECT pg_stat_statements_reset()');
    this.cpuBefore = this.postmaster ? serverCpu(this.postmaster) : new Map();
  }

  /** Writes what ran since reset(), per database; `requests` is what the step's figures divide by. */
  async save(step: string, requests: number): Promise<void> {
    // Per process, so a connection closed meanwhile (a pool's idle timeout) does not subtract its
    // earlier CPU; what a process that ended during the step used is lost (pools keep theirs open).
    const cpuMsByDatabase: Record<string, number> = {};
    for (const [pid, { key, ms }] of this.postmaster
      ? serverCpu(this.postmaster)
      : new Map<number, { key: string; ms: number }>()) {
      cpuMsByDatabase[key] = (cpuMsByDatabase[key] ?? 0) + ms - (this.cpuBefore.get(pid)?.ms ?? 0);
    }
    const { rows } = await this.client.query(
      `SELECT d.datname AS db, s.query, s.calls::int AS calls, s.rows::int AS rows, s.total_exec_time AS total_ms,
              s.mean_exec_time AS mean_ms, s.wal_bytes::bigint AS wal_bytes
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE s.query NOT LIKE '%pg_stat_statements%'
        ORDER BY d.datname, s.calls DESC`,
    );
    writeFileSync(
      join(this.dir, `${step}.json`),
      JSON.stringify({ step, requests, cpuMsByDatabase, statements: rows }, null, 1),
    );
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
