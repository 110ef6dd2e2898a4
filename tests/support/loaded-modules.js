'use strict';
// Preloaded into an app (NODE_OPTIONS=--require …): when the process exits it reports whether
// TypeORM was ever loaded, which a serving process that does not migrate must never do.
process.on('exit', () => {
  const typeorm = Object.keys(require.cache).some((path) => /[\\/]node_modules[\\/]typeorm[\\/]/.test(path));
  process.stderr.write(`\n[loaded-modules] typeorm=${typeorm}\n`);
});
