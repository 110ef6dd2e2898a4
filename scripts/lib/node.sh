# shellcheck shell=bash
# Node-side helpers shared by up.sh, test.sh, bench.sh, with-node.sh and .ci/run: the Node.js
# runtime, dependencies and the build.

# ensure_node: puts Node.js of the project's major version (.node-version, the same version the
# Dockerfile's base image pins) first on PATH. A system Node of that major is used as it is;
# otherwise the npm-packaged binary of the exact version (node-linux-<arch>, checked against the
# registry's integrity hash by npm) is installed once under $CACHE_DIR. npm and npx then run on it,
# and so does every child process the tests spawn (they use process.execPath).
ensure_node() {
  local want major have arch dir bin
  want="$(tr -d '[:space:]' <"$ROOT/.node-version")"
  major="${want%%.*}"
  have="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo none)"
  [[ "$have" == "$major" ]] && return 0
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no npm-packaged Node.js for $(uname -m)" "Install Node.js $major yourself and run this again" ;;
  esac
  dir="$CACHE_DIR/node-$want"
  bin="$dir/node_modules/node-linux-$arch/bin"
  if [[ ! -x "$bin/node" ]]; then
    command -v npm >/dev/null 2>&1 || die "Node.js $major is needed and npm is not installed to fetch it" "Install Node.js $major (any version $major.x) and run this again"
    log "system Node.js is ${have/none/missing}, the project needs $major: installing node-linux-$arch@$want into ${dir#"$ROOT"/}"
    rm -rf -- "$dir"
    npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-$arch@$want" ||
      die "could not install Node.js $want from the npm registry" "Check that the npm registry is reachable, or install Node.js $major yourself"
  fi
  export PATH="$bin:$PATH"
  hash -r
}

# ensure_node_deps: the project's Node.js, then `npm ci` when node_modules is missing or older
# than the lockfile.
ensure_node_deps() {
  ensure_node
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
