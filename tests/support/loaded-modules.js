'use strict';
// Preloaded into an app (NODE_OPTIONS=--require …): when the process exits it reports whether
// TypeORM (only the migration Job may load it) and TypeBox (only the gateway, for its OpenAPI
// schemas) were ever loaded.
const PACKAGES = {
  typeorm: /[\\/]node_modules[\\/]typeorm[\\/]/,
  typebox: /[\\/]node_modules[\\/]@sinclair[\\/]typebox[\\/]/,
};
process.on('exit', () => {
  const paths = Object.keys(require.cache);
  for (const [name, pattern] of Object.entries(PACKAGES))
    process.stderr.write(`\n[loaded-modules] ${name}=${paths.some((path) => pattern.test(path))}\n`);
});
