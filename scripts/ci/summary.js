#!/usr/bin/env node
// Prints `tests: N passed, N failed` from the --json output of one or more Jest runs (a missing
// file counts as one failure: that run did not get as far as running).
const fs = require('node:fs');
let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
  } catch {
    failed += 1;
  }
}
console.log(`tests: ${passed} passed, ${failed} failed`);
