#!/usr/bin/env node
// Runs a TypeScript file directly (benchmarks, one-off tools): compiles each .ts module with swc
// on require, and resolves the @payments/* libraries to their sources like tsconfig's paths do.
// Usage: node scripts/ts-run.js path/to/file.ts [args…]
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  // A subpath (@payments/contracts/schemas) is the lib's file of that name.
  const m = /^@payments\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(request);
  if (m) return path.join(root, 'libs', m[1], 'src', `${m[2] ?? 'index'}.ts`);
  return resolve.call(this, request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
const [file, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], file, ...args];
require(path.resolve(file));
