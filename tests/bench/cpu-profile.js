// Preloaded into each service by `BENCH_PROFILE_DIR=… npm run bench` (NODE_OPTIONS=--require …,
// as --cpu-prof itself is not allowed in NODE_OPTIONS): the same V8 CPU profile --cpu-prof
// writes, saved as <dir>/<service>-<pid>.cpuprofile when the process exits.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    // A same-thread inspector session answers synchronously, so this completes inside 'exit'.
    session.post('Profiler.stop', (err, res) => {
      if (err) return;
      const name = basename(dirname(dirname(process.argv[1] ?? 'node')));
      writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
