// Summarises a V8 .cpuprofile (as BENCH_PROFILE_DIR writes them) by self time per package and per
// function, optionally within a time window, and who calls the functions named in CALLERS:
//   node tests/bench/profile-summary.js <file.cpuprofile> [from-to seconds | all] [top functions]
//   SHOW_ACTIVITY=1 … prints the busy samples per half second first (to find a load step's window);
//   CALLERS=writeUtf8String,insert DEPTH=6 … adds their call stacks.
const { readFileSync } = require('node:fs');

const [file, window = 'all', top = '30'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/bench/profile-summary.js <file.cpuprofile> [from-to seconds | all] [top functions]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = profile.startTime;
const seconds = profile.timeDeltas.map((d) => ((t += d) - profile.startTime) / 1e6);
const frame = (id) => nodes.get(id).callFrame;
const isIdle = (id) => frame(id).functionName === '(idle)';

if (process.env.SHOW_ACTIVITY) {
  const busy = new Map();
  profile.samples.forEach(
    (s, i) =>
      isIdle(s) || busy.set(Math.floor(seconds[i] * 2) / 2, (busy.get(Math.floor(seconds[i] * 2) / 2) ?? 0) + 1),
  );
  console.log([...busy].map(([s, n]) => `${s}s:${n}`).join(' '));
}
const [from, to] = window === 'all' ? [0, Infinity] : window.split('-').map(Number);
const inWindow = (i) => seconds[i] >= from && seconds[i] < to;

const PSEUDO = new Set(['(program)', '(garbage collector)']);
function packageOf(url) {
  if (!url) return '(native)';
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dep) return dep[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const own = /dist\/((?:apps|libs)\/[^/]+)/.exec(url);
  return own ? own[1] : url;
}
const byFunction = new Map();
const byPackage = new Map();
let busy = 0;
profile.samples.forEach((s, i) => {
  if (!inWindow(i) || isIdle(s)) return;
  busy++;
  const f = frame(s);
  const where = f.url.replace(/.*\/(node_modules|dist)\//, '$1/');
  const key = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + 1);
  const pkg = PSEUDO.has(f.functionName) ? f.functionName : packageOf(f.url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
});
const print = (counts, n) =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .forEach(([k, v]) => console.log(`${((100 * v) / busy).toFixed(1).padStart(5)} %  ${k}`));
console.log(`${file}, ${window === 'all' ? 'whole profile' : `${from}–${to} s`}: ${busy} busy samples`);
console.log('— self time per package');
print(byPackage, 25);
console.log('— self time per function');
print(byFunction, Number(top));

for (const name of (process.env.CALLERS ?? '').split(',').filter(Boolean)) {
  const stacks = new Map();
  profile.samples.forEach((s, i) => {
    if (!inWindow(i) || frame(s).functionName !== name) return;
    const chain = [];
    for (
      let id = parent.get(s);
      id !== undefined && chain.length < Number(process.env.DEPTH ?? 4);
      id = parent.get(id)
    ) {
      const f = frame(id);
      chain.push(`${f.functionName || '(anonymous)'}@${f.url.split('/').pop()}:${f.lineNumber + 1}`);
    }
    stacks.set(chain.join(' < '), (stacks.get(chain.join(' < ')) ?? 0) + 1);
  });
  console.log(`— callers of ${name}`);
  [...stacks]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .forEach(([k, v]) => console.log(`${String(v).padStart(6)}  ${k}`));
}
