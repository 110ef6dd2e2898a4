#!/usr/bin/env bash
# Builds every app and lib in one TypeScript pass into dist/ (mirrors the repo: dist/apps/<app>/src/main.js),
# then the merchant dashboard (React, type-checked, bundled by Vite into dist/apps/dashboard, which
# the gateway serves under /dashboard).
# Nx's per-project `build` targets produce the same layout for one project at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.build.json
npx tsc-alias -p tsconfig.build.json
npx tsc -p apps/dashboard/tsconfig.json
npx vite build --config apps/dashboard/vite.config.mts --logLevel warn
