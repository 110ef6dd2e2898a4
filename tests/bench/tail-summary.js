// Where the slowest payments of a load step lost their time, and what the services were doing then:
//   node tests/bench/tail-summary.js <dir>/<step>.hops.json [loop dir] [percentile, default 98]
// The hops file is what `BENCH_HOPS_DIR=<dir>` writes for each step of part (b); the loop dir is `BENCH_LOOP_DIR`'s,
// whose `stalls` (GC pauses and late timer turns, with their time) are listed beside each group of slow payments.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const [file, loopDir, percentile = '98'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/bench/tail-summary.js <step>.hops.json [loop dir] [percentile]');
  process.exit(2);
}
const HOPS = {
  initialize: (r) => r.created - r.sent,
  relay: (r) => r.relayed - r.created,
  consumer: (r) => r.consumed - r.relayed,
  'to a worker': (r) => r.handed - r.consumed,
  arrival: (r) => r.arrived - r.handed,
};
const rows = JSON.parse(readFileSync(file, 'utf8'))
  .filter((r) => [r.sent, r.created, r.relayed, r.consumed, r.handed, r.arrived].every(Number.isFinite))
  .map((r) => ({ ...r, total: r.arrived - r.sent }));
if (rows.length === 0) {
  console.error(`${file}: no payment with every timestamp`);
  process.exit(1);
}
const byTotal = [...rows].sort((a, b) => a.total - b.total);
const at = (p) => byTotal[Math.min(byTotal.length - 1, Math.floor((p / 100) * byTotal.length))].total;
const threshold = at(Number(percentile));
const slow = rows.filter((r) => r.total >= threshold).sort((a, b) => a.sent - b.sent);
const start = Math.min(...rows.map((r) => r.sent));
const mean = (list, hop) => list.reduce((sum, r) => sum + HOPS[hop](r), 0) / list.length;
const seconds = (t) => ((t - start) / 1000).toFixed(2);

console.log(`${file}: ${rows.length} payments, p50 ${at(50).toFixed(1)} ms, p99 ${at(99).toFixed(1)} ms`);
console.log(
  `mean per hop, all:             ${Object.keys(HOPS)
    .map((h) => `${h} ${mean(rows, h).toFixed(1)}`)
    .join(', ')} ms`,
);
console.log(
  `mean per hop, slowest from p${percentile} (${slow.length}): ` +
    `${Object.keys(HOPS)
      .map((h) => `${h} ${mean(slow, h).toFixed(1)}`)
      .join(', ')} ms`,
);

// Slow payments sent within 300 ms of each other form one group: a stall of the machine or of one process.
const groups = [];
for (const r of slow) {
  const last = groups[groups.length - 1];
  if (last && r.sent - last.to <= 300) last.to = r.sent;
  else groups.push({ from: r.sent, to: r.sent });
}
const stalls = [];
if (loopDir) {
  for (const name of readdirSync(loopDir).filter((f) => f.endsWith('.loop.json'))) {
    const service = name.replace(/-\d+\.loop\.json$/, '');
    for (const s of JSON.parse(readFileSync(join(loopDir, name), 'utf8')).stalls ?? []) stalls.push({ service, ...s });
  }
}
console.log(`${groups.length} groups of slow payments (seconds from the step's first send):`);
for (const g of groups) {
  const near = stalls
    .filter((s) => s.at >= g.from - 300 && s.at <= g.to + 150)
    .map((s) => `${s.service} ${s.gc ? `${s.gc} ${s.ms} ms` : `timer ${s.late_ms} ms late`} at ${seconds(s.at)}`);
  console.log(`  ${seconds(g.from)}–${seconds(g.to)} s${near.length ? `: ${near.join('; ')}` : ''}`);
}
