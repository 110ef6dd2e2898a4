#!/usr/bin/env node
// Prints `tests: N passed, N failed` from Jest's --json output (a missing file counts as one failure:
// the suite did not get as far as running).
const fs = require('node:fs');
const file = process.argv[2];
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
} catch {
  failed = 1;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
