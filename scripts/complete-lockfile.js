#!/usr/bin/env node
// Adds lockfile entries for platform-specific optional packages (other OS/CPU builds of @swc/core,
// msgpackr-extract, …) that a registry mirror may not serve: npm then leaves them out of the lock and
// `npm ci` refuses it. Run after changing dependencies: `npm install && npm run lockfile:complete`.
const fs = require('fs');
const file = process.argv[2];
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pk = lock.packages;
const platform = (name) => {
  const os = /darwin/.test(name)
    ? 'darwin'
    : /win32/.test(name)
      ? 'win32'
      : /linux/.test(name)
        ? 'linux'
        : /android/.test(name)
          ? 'android'
          : /freebsd/.test(name)
            ? 'freebsd'
            : null;
  const cpu = /arm64/.test(name)
    ? 'arm64'
    : /ia32/.test(name)
      ? 'ia32'
      : /ppc64/.test(name)
        ? 'ppc64'
        : /s390x/.test(name)
          ? 's390x'
          : /-arm(-|$)/.test(name)
            ? 'arm'
            : /x64/.test(name)
              ? 'x64'
              : null;
  return { os, cpu };
};
let added = 0;
for (const [path, entry] of Object.entries(pk)) {
  if (!entry.optionalDependencies) continue;
  for (const [dep, version] of Object.entries(entry.optionalDependencies)) {
    const key = `node_modules/${dep}`;
    const nested = `${path}/node_modules/${dep}`;
    if (pk[key] || pk[nested]) continue;
    const { os, cpu } = platform(dep);
    if (!os || !cpu) continue;
    pk[key] = { version, cpu: [cpu], os: [os], optional: true, ...(entry.dev ? { dev: true } : {}) };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} entries`);
