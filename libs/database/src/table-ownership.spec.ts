import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One owner per table: each table's SQL lives in its store (docs/architecture.md, "Who owns each
 * table"). A few stores also read a table they do not own, where that read is their aggregate's
 * own read model; those reads are listed one by one with the reason. Everything else — another
 * file touching a table, a write outside the owner, a table no store owns — fails here.
 */
const OWNERS: Record<string, { owners: string[]; readers?: Record<string, string> }> = {
  // gateway
  businesses: {
    owners: ['apps/gateway/src/businesses/business-store.ts'],
    readers: {
      'apps/gateway/src/dashboard/user-store.ts':
        'a dashboard user is shown with its business name, and is created only for an existing business',
    },
  },
  api_keys: { owners: ['apps/gateway/src/auth/api-key-store.ts'] },
  dashboard_users: { owners: ['apps/gateway/src/dashboard/user-store.ts'] },
  dashboard_audit_log: { owners: ['apps/gateway/src/dashboard/audit-store.ts'] },
  // transaction-service
  transactions: {
    owners: [
      'apps/transaction-service/src/transactions/transaction-store.ts',
      'apps/transaction-service/src/transactions/transaction-queries.ts',
    ],
    readers: {
      'apps/transaction-service/src/refunds/refund-store.ts':
        'a refund is shown and published with the reference and amount of the transaction it refunds',
      'apps/transaction-service/src/connectors/provider-payment-store.ts':
        'the status poller claims due checks with the public id, business and mode of their transaction',
      'apps/transaction-service/src/connectors/provider-refund-store.ts':
        "a refund is sent to the provider with its transaction's public id",
    },
  },
  refunds: {
    owners: ['apps/transaction-service/src/refunds/refund-store.ts'],
    readers: {
      'apps/transaction-service/src/connectors/provider-refund-store.ts':
        'a refund is sent to the provider with its amount, currency, reason, business and mode',
    },
  },
  payment_links: { owners: ['apps/transaction-service/src/links/link-store.ts'] },
  provider_connections: { owners: ['apps/transaction-service/src/connections/connection-store.ts'] },
  provider_payments: {
    owners: ['apps/transaction-service/src/connectors/provider-payment-store.ts'],
    readers: {
      'apps/transaction-service/src/transactions/transaction-queries.ts':
        'a pending payment still open at its provider does not expire',
      'apps/transaction-service/src/connectors/provider-refund-store.ts':
        "a refund is sent to the provider with the provider's id of the payment",
    },
  },
  provider_refunds: { owners: ['apps/transaction-service/src/connectors/provider-refund-store.ts'] },
  // split-ledger-service
  ledger_entries: {
    owners: [
      'apps/split-ledger-service/src/ledger/ledger-store.ts',
      'apps/split-ledger-service/src/ledger/ledger-queries.ts',
    ],
  },
  ledger_transactions: { owners: ['apps/split-ledger-service/src/ledger/transaction-copy-store.ts'] },
  ledger_refunds: { owners: ['apps/split-ledger-service/src/ledger/transaction-copy-store.ts'] },
  ledger_daily_totals: { owners: ['apps/split-ledger-service/src/ledger/transaction-copy-store.ts'] },
  // Written by the triggers on ledger_transactions (migration 1765600000000), folded and read by the store.
  ledger_daily_totals_changes: { owners: ['apps/split-ledger-service/src/ledger/transaction-copy-store.ts'] },
  settlement_invoices: { owners: ['apps/split-ledger-service/src/settlement/invoice-store.ts'] },
  split_configs: { owners: ['apps/split-ledger-service/src/splits/split-config-store.ts'] },
  split_config_versions: { owners: ['apps/split-ledger-service/src/splits/split-config-store.ts'] },
  // webhook-dispatcher
  callbacks: {
    owners: ['apps/webhook-dispatcher/src/callbacks/callback-store.ts'],
    readers: {
      'apps/webhook-dispatcher/src/delivery/delivery-store.ts':
        'fan-out and claims need the subscriptions and the endpoint of each delivery',
      'apps/webhook-dispatcher/src/delivery/delivery-queries.ts':
        "the delivery store's hot statements: fan-out and claims need each delivery's endpoint",
      'apps/webhook-dispatcher/src/delivery/delivery-admin-store.ts':
        'recovery is scoped to the active callbacks of a business',
    },
  },
  deliveries: {
    owners: [
      'apps/webhook-dispatcher/src/delivery/delivery-store.ts',
      'apps/webhook-dispatcher/src/delivery/delivery-queries.ts',
      'apps/webhook-dispatcher/src/delivery/delivery-admin-store.ts',
    ],
    readers: {
      'apps/webhook-dispatcher/src/events/events-store.ts':
        'retention skips an event while one of its deliveries is pending; ' +
        'a transaction’s events are shown with the deliveries they caused',
    },
  },
  delivery_attempts: {
    owners: [
      'apps/webhook-dispatcher/src/delivery/delivery-store.ts',
      'apps/webhook-dispatcher/src/delivery/delivery-queries.ts',
      'apps/webhook-dispatcher/src/delivery/delivery-admin-store.ts',
    ],
  },
  // The fan-out runs the events store's insert (recordNewEvents) as its first step, in one statement.
  webhook_events: {
    owners: ['apps/webhook-dispatcher/src/events/events-store.ts'],
    readers: {
      'apps/webhook-dispatcher/src/delivery/delivery-store.ts': 'fan-out and claims need the event each delivery sends',
      'apps/webhook-dispatcher/src/delivery/delivery-queries.ts':
        'fan-out and claims need the event each delivery sends',
      'apps/webhook-dispatcher/src/delivery/delivery-admin-store.ts':
        'the delivery log names the event type; test pings are never recovered',
    },
  },
  // every service's messaging tables, written by libs/messaging only
  outbox_events: {
    owners: ['libs/messaging/src/outbox.ts'],
  },
  processed_events: { owners: ['libs/messaging/src/consumer.ts'] },
};

/** Names after FROM/JOIN that are not tables: CTEs, set-returning functions, catalogs. */
const NOT_TABLES = new Set([
  't',
  'recorded',
  'cursor_row',
  'picked',
  'done',
  'input',
  'relay',
  'ranked',
  'fan_out',
  'fan_out_claims',
  'fanned_deliveries',
  'scopes',
  'folded',
  'parts',
  'batch',
  'pruner',
  'now',
  'unnest',
  'jsonb_to_recordset',
  'jsonb_to_record',
  'written',
  'pg_database',
  'pg_index',
  'pg_class',
]);

const ROOT = join(__dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' || e.name === 'node_modules' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

interface Use {
  file: string;
  table: string;
  write: boolean;
  line: number;
}

/** Every SQL use of a name after FROM, JOIN, INTO or UPDATE in a file (SQL keywords are written in capitals here). */
function tableUses(file: string, text: string): Use[] {
  const uses: Use[] = [];
  for (const m of text.matchAll(/\b(DELETE\s+FROM|FROM|JOIN|INTO|UPDATE)\s+"?([a-z_][a-z0-9_]*)\b/g)) {
    const keyword = m[1].replace(/\s+/g, ' ');
    uses.push({
      file,
      table: m[2],
      write: keyword !== 'FROM' && keyword !== 'JOIN',
      line: text.slice(0, m.index).split('\n').length,
    });
  }
  // Statements a helper builds from a table name: keysetPage's `table` reads it, jsonInsert's `into` writes it.
  for (const m of text.matchAll(/\b(table|into):\s*'([a-z_][a-z0-9_]*)'/g)) {
    uses.push({ file, table: m[2], write: m[1] === 'into', line: text.slice(0, m.index).split('\n').length });
  }
  return uses;
}

const files = [...sources('apps'), ...sources('libs')];
const uses = files.flatMap((f) => tableUses(relative(ROOT, join(ROOT, f)), readFileSync(join(ROOT, f), 'utf8')));

/**
 * Files that run SQL without being a store: the data layer itself (libs/database, libs/messaging's
 * outbox, inbox and their schema) and the database health checks (`SELECT 1`).
 */
const NOT_STORES_WITH_SQL: Record<string, string> = {
  'apps/gateway/src/main.ts': 'the readiness check: SELECT 1',
  'libs/service-host/src/run-service.ts': 'the readiness check: SELECT 1',
};
const isStore = (file: string) =>
  /-(store|queries)\.ts$/.test(file) ||
  file.startsWith('libs/database/') ||
  file.startsWith('libs/messaging/') ||
  NOT_STORES_WITH_SQL[file] !== undefined;

/** Lines that hold the start of an SQL statement in a string (SQL keywords are written in capitals here). */
function sqlStatements(file: string, text: string): string[] {
  return [...text.matchAll(/['"`]\s*(SELECT|INSERT INTO|UPDATE|DELETE FROM|WITH|LOCK TABLE)\b/g)].map(
    (m) => `${file}:${text.slice(0, m.index).split('\n').length} ${m[1]}`,
  );
}

describe('one owner per table', () => {
  it('SQL is written in stores only: use cases, handlers and schedulers call store methods', () => {
    const found = files
      .filter((f) => !isStore(f))
      .flatMap((f) => sqlStatements(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
    // The scan finds what it looks for.
    expect(
      sqlStatements('x.ts', "await m.query('SELECT pg_advisory_xact_lock(1)'); const q = `\n  WITH t AS (SELECT 1)`;"),
    ).toEqual(['x.ts:1 SELECT', 'x.ts:1 WITH']);
  });

  it('every table the migrations create has an owner', () => {
    const created = new Set<string>();
    const migrationDirs = readdirSync(join(ROOT, 'apps')).map((app) => join('apps', app, 'src', 'migrations'));
    for (const dir of [...migrationDirs, 'libs/messaging/src']) {
      let names: string[];
      try {
        names = readdirSync(join(ROOT, dir));
      } catch {
        continue;
      }
      for (const n of names.filter((x) => x.endsWith('.ts'))) {
        for (const m of readFileSync(join(ROOT, dir, n), 'utf8').matchAll(
          /CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/g,
        ))
          created.add(m[1]);
      }
    }
    expect(created.size).toBeGreaterThan(10);
    expect([...created].filter((t) => !OWNERS[t]).sort()).toEqual([]);
  });

  it('a table is read and written only by its store (and read only by the listed read models)', () => {
    const outside = uses
      .filter((u) => !NOT_TABLES.has(u.table))
      .filter((u) => {
        const rule = OWNERS[u.table];
        if (!rule) return true;
        if (rule.owners.includes(u.file)) return false;
        return u.write || !rule.readers?.[u.file];
      })
      .map((u) => `${u.file}:${u.line} ${u.write ? 'writes' : 'reads'} ${u.table}`);
    expect(outside).toEqual([]);
  });

  it('finds SQL where it is (the scan itself works)', () => {
    const sample =
      "await m.query('SELECT * FROM transactions t JOIN refunds r ON r.id = 1'); " +
      "await m.query('DELETE FROM deliveries'); `UPDATE callbacks SET x = 1`; " +
      "'INSERT INTO \"api_keys\" (a)'; keysetPage(db, { table: 'payment_links' })";
    expect(tableUses('x.ts', sample).map((u) => `${u.write ? 'w' : 'r'}:${u.table}`)).toEqual([
      'r:transactions',
      'r:refunds',
      'w:deliveries',
      'w:callbacks',
      'w:api_keys',
      'r:payment_links',
    ]);
    expect(
      uses.some(
        (u) =>
          u.file === 'apps/transaction-service/src/transactions/transaction-queries.ts' && u.table === 'transactions',
      ),
    ).toBe(true);
  });
});
