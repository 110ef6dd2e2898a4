// Summarises a step file written by BENCH_PG_STATEMENTS (tests/bench/pg-statements.ts) per
// request of the step: per database, each statement's calls, rows and execution time, as a
// Markdown table.
//   node tests/bench/pg-statements-summary.js <dir>/stack-x32.json [min calls per request, default 0.01]
const { readFileSync } = require('node:fs');

const [file, minCalls = '0.01'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/bench/pg-statements-summary.js <step.json> [min calls per request]');
  process.exit(2);
}
const { step, requests, statements, cpuMsByDatabase = {} } = JSON.parse(readFileSync(file, 'utf8'));
// The bench's databases share a run prefix; the service's name is what tells them apart.
const service = (db) => db.replace(/^[^_]*_/, '');
const oneLine = (q) => q.replace(/\s+/g, ' ').trim();
const short = (q) => (q.length > 110 ? `${q.slice(0, 107)}…` : q);
const f = (n, d = 2) => n.toFixed(d);

console.log(`${step}: ${requests} requests\n`);
console.log('| database | statement | calls / request | rows / call | mean ms | ms / request | WAL bytes / request |');
console.log('|---|---|---|---|---|---|---|');
const byDb = new Map();
for (const s of statements) {
  const db = service(s.db);
  const perReq = s.calls / requests;
  const t = byDb.get(db) ?? { calls: 0, ms: 0, wal: 0 };
  t.calls += s.calls;
  t.ms += s.total_ms;
  t.wal += Number(s.wal_bytes);
  byDb.set(db, t);
  if (perReq < Number(minCalls)) continue;
  console.log(
    `| ${db} | \`${short(oneLine(s.query)).replace(/\|/g, '\\|')}\` | ${f(perReq)} | ` +
      `${f(s.rows / Math.max(1, s.calls), 1)} | ${f(s.mean_ms, 3)} | ` +
      `${f(s.total_ms / requests, 3)} | ${f(Number(s.wal_bytes) / requests, 0)} |`,
  );
}
console.log('\n| database | statements / request | execution ms / request | WAL bytes / request |');
console.log('|---|---|---|---|');
let all = { calls: 0, ms: 0, wal: 0 };
for (const [db, t] of byDb) {
  console.log(`| ${db} | ${f(t.calls / requests)} | ${f(t.ms / requests, 3)} | ${f(t.wal / requests, 0)} |`);
  all = { calls: all.calls + t.calls, ms: all.ms + t.ms, wal: all.wal + t.wal };
}
console.log(`| all | ${f(all.calls / requests)} | ${f(all.ms / requests, 3)} | ${f(all.wal / requests, 0)} |`);
if (Object.keys(cpuMsByDatabase).length > 0) {
  console.log('\n| server process | CPU ms / request |\n|---|---|');
  let total = 0;
  for (const [db, ms] of Object.entries(cpuMsByDatabase)) {
    total += ms;
    if (ms > 0) console.log(`| ${service(db)} | ${f(ms / requests, 3)} |`);
  }
  console.log(`| all | ${f(total / requests, 3)} |`);
}
