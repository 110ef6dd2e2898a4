# shellcheck shell=bash
# Node-side helpers shared by up.sh and test.sh: dependencies and the build.

# ensure_node_deps: `npm ci` when node_modules is missing or older than the lockfile.
ensure_node_deps() {
  command -v node >/dev/null 2>&1 || die "Node.js is not installed" "Install Node.js 20 (node >= 20.19) and npm, then run this again"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  ((major >= 20)) || die "Node.js $(node --version) is too old" "Install Node.js 20 or newer"
  if [[ ! -f "$ROOT/node_modules/.package-lock.json" || "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]]; then
    log "installing dependencies (npm ci)"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error) ||
      die "npm ci failed" "Check that the npm registry is reachable and see the output above"
  fi
}

# build_all: one TypeScript pass over every app and lib into dist/.
build_all() {
  log "building (TypeScript → dist/)"
  bash "$ROOT/scripts/build.sh" || die "the build failed" "See the compiler errors above"
}
