// Preloaded into each service by `BENCH_ALLOC_DIR=… npm run bench` (NODE_OPTIONS=--require …): a sampling heap profile
// of every allocation, including objects young-generation collections already freed, i.e. what makes the garbage
// collector run. Saved as <dir>/<service>-<pid>.heapprofile when the process exits (open it in Chrome DevTools).
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const dir = process.env.BENCH_ALLOC_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 64 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  process.on('exit', () => {
    session.post('HeapProfiler.stopSampling', (err, res) => {
      if (err) return;
      const name = basename(dirname(dirname(process.argv[1] ?? 'node')));
      writeFileSync(join(dir, `${name}-${process.pid}.heapprofile`), JSON.stringify(res.profile));
    });
  });
}
