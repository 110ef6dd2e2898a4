import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import Redis from 'ioredis';
import { ALL_APPS, type Stack } from '../support/stack';
import { cpuMs } from './memory';
import type { Report } from './report';

/** Linux reports /proc/stat in USER_HZ ticks, 100 a second on every architecture Node runs on. */
const TICK_MS = 10;

/** Busy CPU time of the whole machine so far (every core: user, nice, system, irq, softirq), in ms. */
function machineBusyMs(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq] = f;
  return (user + nice + system + irq + softirq) * TICK_MS;
}

/** The fields of /proc/<pid>/stat after the command name (which may hold ") "). */
const statFields = (pid: number): string[] => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(') ') + 2).split(' ');
};

/** CPU of a process and of its children that have ended (cutime, cstime): a backend that exits keeps counting. */
function cpuWithEndedChildrenMs(pid: number): number {
  try {
    const f = statFields(pid);
    return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The processes of this machine: pid, parent pid and command line. */
function processes(): { pid: number; ppid: number; cmd: string }[] {
  const out: { pid: number; ppid: number; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(statFields(Number(entry))[1]);
      out.push({ pid: Number(entry), ppid, cmd: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
}

const sumCpu = (pids: number[]) => pids.reduce((n, pid) => n + (cpuMs(pid) || 0), 0);

/** The databases PostgreSQL's backends are split by: a service's database name ends with its own. */
const SERVICE_DATABASES = ['transactions', 'ledger', 'webhooks', 'gateway'] as const;
type ServiceDatabase = (typeof SERVICE_DATABASES)[number];

/**
 * The service database a backend serves (`postgres: [<cluster>: ]<user> <database> <host>(<port>)|[local] …`);
 * undefined for the rest.
 */
function backendDatabase(cmd: string): ServiceDatabase | undefined {
  const db = /^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(cmd)?.[1];
  return SERVICE_DATABASES.find((name) => db?.endsWith(`_${name}`));
}

interface Sample {
  machine: number;
  services: number;
  postgres: number;
  /** CPU of each running client backend of a service's database, by pid (the rest of `postgres`: background work). */
  backends: Map<number, { database: ServiceDatabase; ms: number }>;
  kafka: number;
  redis: number;
  bench: number;
  statements: number;
  transactions: number;
  walBytes: number;
  walSyncs: number;
}

/**
 * Where the machine's time goes per payment: whole-machine busy CPU (/proc/stat) and its parts per process (services,
 * PostgreSQL backends, Kafka, Redis, this process), plus PostgreSQL statements, WAL bytes, transactions and WAL
 * fsyncs. Backends report the last two up to a second late, so they read a little low over a 10 s window. Only
 * meaningful on a machine that runs nothing else.
 */
export class MachineCost {
  private constructor(
    private readonly stack: Stack,
    private readonly pg: Client,
    private readonly postmaster: number,
    private readonly redisPid: number,
    private readonly statementsLoaded: boolean,
  ) {}

  static async open(stack: Stack): Promise<MachineCost> {
    const pg = new Client({ connectionString: stack.infra.DATABASE_URL });
    await pg.connect();
    const { rows } = await pg.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const postmaster = processes().find((p) => p.pid === rows[0].pid)?.ppid ?? 0;
    let statementsLoaded = true;
    try {
      await pg.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await pg.query('SELECT count(*) FROM pg_stat_statements');
    } catch {
      statementsLoaded = false;
    }
    const redis = new Redis(stack.infra.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1] ?? 0);
    redis.disconnect();
    return new MachineCost(stack, pg, postmaster, redisPid, statementsLoaded);
  }

  async sample(): Promise<Sample> {
    const all = processes();
    // Backends that ended are in the postmaster's cutime/cstime, those running in their own.
    const pgChildren = this.postmaster ? all.filter((p) => p.ppid === this.postmaster) : [];
    const pgBackends = pgChildren.map((p) => p.pid);
    const backends = new Map<number, { database: ServiceDatabase; ms: number }>();
    for (const p of pgChildren) {
      const database = backendDatabase(p.cmd);
      if (database) backends.set(p.pid, { database, ms: cpuMs(p.pid) || 0 });
    }
    const kafkaPids = all.filter((p) => p.cmd.includes('kafka.Kafka')).map((p) => p.pid);
    const bench = process.cpuUsage();
    const {
      rows: [db],
    } = await this.pg.query<{
      statements: string | null;
      transactions: string;
      wal_bytes: string;
      wal_sync: string | null;
    }>(
      `SELECT ${this.statementsLoaded ? '(SELECT sum(calls) FROM pg_stat_statements)' : 'NULL'} AS statements,
              (SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database) AS transactions,
              pg_current_wal_lsn() - '0/0'::pg_lsn AS wal_bytes, to_jsonb(w)->>'wal_sync' AS wal_sync
         FROM pg_stat_wal w`,
    );
    return {
      machine: machineBusyMs(),
      services: sumCpu(this.stack.allProcesses.map((p) => p.child.pid ?? 0).filter(Boolean)),
      postgres: this.postmaster ? cpuWithEndedChildrenMs(this.postmaster) + sumCpu(pgBackends) : NaN,
      backends,
      kafka: sumCpu(kafkaPids),
      redis: cpuMs(this.redisPid) || 0,
      bench: (bench.user + bench.system) / 1000,
      statements: db.statements === null ? NaN : Number(db.statements),
      transactions: Number(db.transactions),
      walBytes: Number(db.wal_bytes),
      // PostgreSQL 18 moved it to pg_stat_io: NaN there, not a failed run.
      walSyncs: db.wal_sync === null ? NaN : Number(db.wal_sync),
    };
  }

  /**
   * Adds, per payment, what the machine and PostgreSQL did between `before` and `after`. `targetMs`: the most the whole
   * machine may spend per payment (the 100/s target).
   */
  report(report: Report, section: string, before: Sample, after: Sample, payments: number, targetMs?: number): void {
    const n = Math.max(1, payments);
    const per = (k: Exclude<keyof Sample, 'backends'>) => (after[k] - before[k]) / n;
    // A backend's CPU since `before` (all of it if it started since); one that ended is in `rest` (the postmaster's).
    const byDatabase = SERVICE_DATABASES.map((name) => {
      let ms = 0;
      for (const [pid, b] of after.backends) if (b.database === name) ms += b.ms - (before.backends.get(pid)?.ms ?? 0);
      return ms / n;
    });
    const rest = per('postgres') - byDatabase.reduce((a, b) => a + b, 0);
    const parts =
      `services ${per('services').toFixed(2)}, PostgreSQL ${per('postgres').toFixed(2)}, ` +
      `Kafka ${per('kafka').toFixed(2)}, Redis ${per('redis').toFixed(2)}, ` +
      `load generator and receiver ${per('bench').toFixed(2)} ms`;
    report.add({
      section,
      name: 'whole machine CPU per payment',
      value: per('machine'),
      unit: 'ms',
      note: parts,
      target: targetMs === undefined ? undefined : { op: '<=', value: targetMs },
    });
    report.add({
      section,
      name: 'PostgreSQL CPU per payment',
      value: per('postgres'),
      unit: 'ms',
      note:
        `backends of ${SERVICE_DATABASES.map((name, i) => `${name} ${byDatabase[i].toFixed(2)}`).join(', ')}; ` +
        `background processes and ended backends ${rest.toFixed(2)} ms`,
    });
    report.add({ section, name: 'Kafka CPU per payment', value: per('kafka'), unit: 'ms' });
    report.add({ section, name: 'Redis CPU per payment', value: per('redis'), unit: 'ms' });
    report.add({
      section,
      name: 'PostgreSQL statements per payment',
      value: per('statements'),
      unit: '',
      note: this.statementsLoaded
        ? `${per('transactions').toFixed(1)} transactions`
        : 'pg_stat_statements not preloaded by the server',
    });
    report.add({
      section,
      name: 'PostgreSQL WAL per payment',
      value: per('walBytes') / 1024,
      unit: 'KiB',
      note: `${per('walSyncs').toFixed(2)} WAL fsyncs per payment`,
    });
  }

  /**
   * What the stack costs while nothing happens, as a share of one core over `seconds`: the machine, each of its parts,
   * each service, and PostgreSQL's statements per second (the polling that runs when there is no work).
   */
  async idle(report: Report, seconds: number): Promise<void> {
    const section = 'idle';
    const services = () => ALL_APPS.map((app) => cpuMs(this.stack.app(app).child.pid));
    const servicesBefore = services();
    const before = await this.sample();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const after = await this.sample();
    const servicesAfter = services();
    const wallMs = performance.now() - started;
    const share = (ms: number) => (100 * ms) / wallMs;
    const parts = (k: Exclude<keyof Sample, 'backends'>) => share(after[k] - before[k]);
    report.add({
      section,
      name: 'whole machine CPU',
      value: parts('machine'),
      unit: '% of a core',
      note:
        `services ${parts('services').toFixed(1)}, PostgreSQL ${parts('postgres').toFixed(1)}, ` +
        `Kafka ${parts('kafka').toFixed(1)}, Redis ${parts('redis').toFixed(1)}, bench ${parts('bench').toFixed(1)} %`,
    });
    ALL_APPS.forEach((app, i) =>
      report.add({
        section,
        name: `${app} CPU`,
        value: share(servicesAfter[i] - servicesBefore[i]),
        unit: '% of a core',
      }),
    );
    report.add({
      section,
      name: 'PostgreSQL statements',
      value: ((after.statements - before.statements) * 1000) / wallMs,
      unit: '/s',
      note: `${(((after.transactions - before.transactions) * 1000) / wallMs).toFixed(1)} transactions/s`,
    });
  }

  async close(): Promise<void> {
    await this.pg.end();
  }
}
