// Preloaded into each service by `BENCH_LOOP_DIR=… npm run bench` (NODE_OPTIONS=--require …):
// event-loop delay (perf_hooks histogram, 1 ms resolution) and garbage-collection pauses by kind,
// written as <dir>/<service>-<pid>.loop.json when the process exits. The tail of a latency is
// often a stall of the process's one event loop, which per-hop timestamps cannot tell apart. `stalls` lists, with their
// wall-clock time (epoch ms), each GC pause of 5 ms or more and each turn of a 10 ms timer that came 20 ms or more
// late, to set beside the times of the slowest payments.
const { monitorEventLoopDelay, performance, PerformanceObserver, constants } = require('node:perf_hooks');
const { setInterval } = require('node:timers');
const { writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const dir = process.env.BENCH_LOOP_DIR;
if (dir) {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak-callbacks',
  };
  const gc = {};
  const stalls = [];
  const STALL_GC_MS = 5;
  const STALL_LATE_MS = 20;
  const TICK_MS = 10;
  let expected = Date.now() + TICK_MS;
  setInterval(() => {
    const late = Date.now() - expected;
    if (late >= STALL_LATE_MS && stalls.length < 10_000) stalls.push({ at: expected, late_ms: late });
    expected = Date.now() + TICK_MS;
  }, TICK_MS).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = kinds[e.detail?.kind] ?? String(e.detail?.kind);
      if (e.duration >= STALL_GC_MS && stalls.length < 10_000)
        stalls.push({ at: Math.round(performance.timeOrigin + e.startTime), gc: kind, ms: Math.round(e.duration) });
      const g = (gc[kind] ??= { count: 0, total_ms: 0, max_ms: 0, over_10ms: 0 });
      g.count += 1;
      g.total_ms += e.duration;
      g.max_ms = Math.max(g.max_ms, e.duration);
      if (e.duration > 10) g.over_10ms += 1;
    }
  }).observe({ entryTypes: ['gc'] });
  const started = Date.now();
  process.on('exit', () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const name = basename(dirname(dirname(process.argv[1] ?? 'node')));
    const out = {
      seconds: (Date.now() - started) / 1000,
      loop_delay_ms: {
        p50: ms(loop.percentile(50)),
        p99: ms(loop.percentile(99)),
        p999: ms(loop.percentile(99.9)),
        max: ms(loop.max),
        over_resolution: loop.count,
      },
      gc,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      stalls,
    };
    writeFileSync(join(dir, `${name}-${process.pid}.loop.json`), JSON.stringify(out, null, 1));
  });
}
