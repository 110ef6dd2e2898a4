import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { Client, Pool } from 'pg';
import { fixKafkajsTimers } from '@payments/messaging';
import { FramedRpcClient, RpcSigner, type RpcScope } from '@payments/platform';
import { infra, runId } from './infra';
import { AppProcess, freePort, startApp, type AppName } from './processes';

const DB_SUFFIX: Record<Exclude<AppName, never>, string> = {
  gateway: 'gateway',
  'transaction-service': 'transactions',
  'split-ledger-service': 'ledger',
  'webhook-dispatcher': 'webhooks',
};

export const ALL_APPS: AppName[] = ['transaction-service', 'split-ledger-service', 'webhook-dispatcher', 'gateway'];

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A private copy of the system for one test file: its own databases, Kafka topic prefix, consumer groups and ports, on
 * the shared real PostgreSQL/Redis/Kafka. Several can run side by side, also next to `npm run up`.
 */
export class Stack {
  readonly id = runId();
  readonly adminToken = `adm_${this.id}_0123456789abcdef`;
  /** INTERNAL_RPC_SECRET of every app of this stack. */
  readonly rpcSecret = `rpc_${this.id}_${Math.random().toString(36).slice(2)}_0123456789abcdef`;
  /** PROVIDER_CREDENTIALS_KEY of this stack's transaction-service (the base64 of 32 random bytes). */
  readonly credentialsKey = randomBytes(32).toString('base64');
  readonly infra = infra();
  /** The first (or only) process of each app; more replicas are in `replicas`. */
  readonly processes = new Map<AppName, AppProcess>();
  /** Every process of each app, replica 0 first (`opts.replicas` of start). */
  private readonly replicaProcs = new Map<AppName, AppProcess[]>();
  private readonly ports = new Map<AppName, Array<{ http: number; rpc: number; metrics: number }>>();
  private readonly pools = new Map<AppName, Pool>();

  private constructor(private readonly baseEnv: Record<string, string>) {}

  /**
   * Starts the apps, each migrating its database on boot; with `migrationJobs`, as a deployment runs them instead:
   * `main.js migrate` per app first, then serving processes that do not migrate. `replicas` runs more than one process
   * of an app (as a Deployment's replicas): each has its own ports, the gateway knows every service replica's RPC
   * address, and replicas after the first start once the first has migrated.
   */
  static async start(
    apps: AppName[] = ALL_APPS,
    env: Record<string, string> = {},
    opts: { migrationJobs?: boolean; replicas?: Partial<Record<AppName, number>> } = {},
  ): Promise<Stack> {
    const stack = new Stack(opts.migrationJobs ? { ...env, MIGRATE_ON_BOOT: 'false' } : env);
    for (const app of ALL_APPS) {
      const ports = [];
      for (let i = 0; i < Math.max(1, opts.replicas?.[app] ?? 1); i++)
        ports.push({ http: await freePort(), rpc: await freePort(), metrics: await freePort() });
      stack.ports.set(app, ports);
    }
    try {
      if (opts.migrationJobs) await Promise.all(apps.map((a) => stack.migrate(a)));
      for (const app of apps) stack.spawn(app);
      await Promise.all(apps.map((a) => stack.processes.get(a)!.waitReady()));
      const more = apps.flatMap((a) =>
        stack.ports
          .get(a)!
          .slice(1)
          .map((_, i) => stack.spawn(a, {}, i + 1)),
      );
      await Promise.all(more.map((p) => p.waitReady()));
    } catch (err) {
      await stack.stop();
      throw err;
    }
    return stack;
  }

  get topicPrefix(): string {
    return `${this.id}.`;
  }

  dbName(app: AppName): string {
    return `${this.id}_${DB_SUFFIX[app]}`;
  }

  /** How many processes of `app` this stack runs. */
  replicaCount(app: AppName): number {
    return this.ports.get(app)!.length;
  }

  private rpcAddrs(app: AppName): string {
    return this.ports
      .get(app)!
      .map((p) => `127.0.0.1:${p.rpc}`)
      .join(',');
  }

  envFor(app: AppName, extra: Record<string, string> = {}, replica = 0): Record<string, string> {
    const ports = this.ports.get(app)![replica]!;
    const common = {
      DATABASE_URL: this.infra.DATABASE_URL,
      REDIS_URL: this.infra.REDIS_URL,
      KAFKA_BROKERS: this.infra.KAFKA_BROKERS,
      DATABASE_NAME: this.dbName(app),
      DATABASE_POOL_SIZE: '5',
      KAFKA_TOPIC_PREFIX: this.topicPrefix,
      KAFKA_PARTITIONS: '3',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SANDBOX_SETTLE_MS: '300',
      OUTBOX_POLL_INTERVAL_MS: '50',
      SHUTDOWN_TIMEOUT_MS: '20000',
      INTERNAL_RPC_SECRET: this.rpcSecret,
    };
    const own: Record<string, string> =
      app === 'gateway'
        ? {
            GATEWAY_PORT: String(ports.http),
            METRICS_PORT: String(ports.metrics),
            ADMIN_API_TOKEN: this.adminToken,
            CHECKOUT_URL: `http://127.0.0.1:${this.ports.get('gateway')![0]!.http}/checkout`,
            TRANSACTION_SERVICE_ADDRS: this.rpcAddrs('transaction-service'),
            SPLIT_LEDGER_SERVICE_ADDRS: this.rpcAddrs('split-ledger-service'),
            WEBHOOK_DISPATCHER_ADDRS: this.rpcAddrs('webhook-dispatcher'),
            RPC_TIMEOUT_MS: '5000',
            REDIS_KEY_PREFIX: `${this.id}:`,
          }
        : {
            RPC_HOST: '127.0.0.1',
            RPC_PORT: String(ports.rpc),
            HTTP_PORT: String(ports.http),
            ...(app === 'transaction-service' ? { PROVIDER_CREDENTIALS_KEY: this.credentialsKey } : {}),
            // Where providers post status updates and customers come back: this stack's gateway.
            PUBLIC_BASE_URL: `http://127.0.0.1:${this.ports.get('gateway')![0]!.http}`,
          };
    return { ...common, ...own, ...this.baseEnv, ...extra };
  }

  rpcPort(app: AppName, replica = 0): number {
    return this.ports.get(app)![replica]!.rpc;
  }

  /** Where an app serves Prometheus metrics: the gateway's METRICS_PORT, a service's HTTP_PORT. */
  metricsUrl(app: AppName, replica = 0): string {
    const ports = this.ports.get(app)![replica]!;
    return `http://127.0.0.1:${app === 'gateway' ? ports.metrics : ports.http}/metrics`;
  }

  /** An RPC client of one service, signing like the gateway does (merchant scope unless told). */
  rpcClient(app: AppName, scope: RpcScope = 'merchant', port = this.rpcPort(app)): FramedRpcClient {
    return new FramedRpcClient({
      host: '127.0.0.1',
      port,
      signer: new RpcSigner(this.rpcSecret, scope),
      timeoutMs: 30_000,
      maxFrameBytes: 16 * 1024 * 1024,
    });
  }

  /** Starts (or starts again) one app (one replica of it); resolves when it is ready. */
  async startApp(app: AppName, extra: Record<string, string> = {}, replica = 0): Promise<AppProcess> {
    const proc = this.spawn(app, extra, replica);
    await proc.waitReady();
    return proc;
  }

  /** Runs an app's migration Job (`main.js migrate`); resolves with its output once it succeeded. */
  async migrate(app: AppName, extra: Record<string, string> = {}): Promise<string> {
    const job = startApp(app, this.envFor(app, extra), this.ports.get(app)![0]!.http, ['migrate']);
    const code = await job.waitExit(120_000);
    if (code !== 0) throw new Error(`${app} migrate exited with ${code}:\n${job.output.slice(-3000)}`);
    return job.output;
  }

  private spawn(app: AppName, extra: Record<string, string> = {}, replica = 0): AppProcess {
    const procs = this.replicaProcs.get(app) ?? [];
    if (procs[replica]?.running) throw new Error(`${app} replica ${replica} is already running`);
    const proc = startApp(app, this.envFor(app, extra, replica), this.ports.get(app)![replica]!.http);
    procs[replica] = proc;
    this.replicaProcs.set(app, procs);
    if (replica === 0) this.processes.set(app, proc);
    return proc;
  }

  /** The process of an app (of one replica of it). */
  app(app: AppName, replica = 0): AppProcess {
    const p = this.replicaProcs.get(app)?.[replica];
    if (!p) throw new Error(`${app} replica ${replica} was not started`);
    return p;
  }

  /** Every process this stack started, replicas included. */
  get allProcesses(): AppProcess[] {
    return [...this.replicaProcs.values()].flat();
  }

  get gatewayUrl(): string {
    return this.gatewayUrlOf(0);
  }

  /** The base URL of one gateway replica. */
  gatewayUrlOf(replica: number): string {
    return `http://127.0.0.1:${this.ports.get('gateway')![replica]!.http}`;
  }

  /** A connection pool to one app's own database (for assertions only). */
  db(app: AppName): Pool {
    let pool = this.pools.get(app);
    if (!pool) {
      const url = new URL(this.infra.DATABASE_URL);
      url.pathname = `/${this.dbName(app)}`;
      pool = new Pool({ connectionString: url.toString(), max: 2 });
      // An idle connection the server ends (its database dropped, a restart) is reported on the pool; without a
      // listener that would crash the test process. A query on the pool still fails as before.
      pool.on('error', () => undefined);
      this.pools.set(app, pool);
    }
    return pool;
  }

  async api<T = Record<string, unknown>>(
    method: string,
    path: string,
    /** `rawBody` is sent as it is (bytes exactly; a string as UTF-8), `body` as JSON. */
    /** `gateway` picks a gateway replica (the first by default). */
    opts: {
      key?: string;
      body?: unknown;
      rawBody?: string | Uint8Array;
      headers?: Record<string, string>;
      gateway?: number;
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | Uint8Array | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.gatewayUrlOf(opts.gateway ?? 0)}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  async createBusiness(
    name = 'Test Business',
  ): Promise<{ id: number; test: { secret: string; public: string }; live: { secret: string; public: string } }> {
    const res = await this.api<{
      business: { id: number };
      api_keys: { test: { secret: string; public: string }; live: { secret: string; public: string } };
    }>('POST', '/admin/v1/businesses', { headers: { authorization: `Bearer ${this.adminToken}` }, body: { name } });
    if (res.status !== 201) throw new Error(`create business failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.business.id, ...res.body.api_keys };
  }

  kafka(): Kafka {
    // As the services do (createKafka): kafkajs would otherwise make Node warn about negative timers.
    fixKafkajsTimers();
    return new Kafka({
      clientId: `test-${this.id}`,
      brokers: this.infra.KAFKA_BROKERS.split(','),
      logLevel: logLevel.NOTHING,
    });
  }

  /** Stops every process, drops this stack's databases and deletes its topics. */
  async stop(): Promise<void> {
    await Promise.all(this.allProcesses.map((p) => p.stop().catch(() => p.kill())));
    await Promise.all([...this.pools.values()].map((p) => p.end()));
    const admin = new Client({ connectionString: this.infra.DATABASE_URL });
    await admin.connect();
    for (const app of ALL_APPS) await admin.query(`DROP DATABASE IF EXISTS "${this.dbName(app)}" WITH (FORCE)`);
    await admin.end();
    // Queues (BullMQ) and gateway keys of this stack: bull:<prefix>… and <id>:…
    const redis = new IORedis(this.infra.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      for (const pattern of [`bull:${this.topicPrefix}*`, `${this.id}:*`]) {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      }
    } finally {
      redis.disconnect();
    }
    const kadmin = this.kafka().admin();
    await kadmin.connect();
    const topics = (await kadmin.listTopics()).filter((t) => t.startsWith(this.topicPrefix));
    if (topics.length > 0) await kadmin.deleteTopics({ topics, timeout: 10_000 }).catch(() => undefined);
    await kadmin.disconnect();
  }
}
