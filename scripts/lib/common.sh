# shellcheck shell=bash
# Shared helpers for the local-infrastructure scripts (scripts/infra/*.sh).
#
# Source it from a script that has already done `set -euo pipefail`:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
#   PIECE=redis                      # used as the prefix of every message
#   PIECE_LOG="$LOG_DIR/redis.log"   # pointed at when something fails
#
# Everything at runtime lives under LOCAL_DIR (data, logs, pid files) and
# downloads under CACHE_DIR; both are git-ignored and can be overridden.

# ---------------------------------------------------------------- locations

# Repository root: two levels above this file (scripts/lib/common.sh), as a
# physical path so that it is stable (it is hashed for some fallback paths).
if [[ -z "${ROOT:-}" ]]; then
  ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
fi

_abs_path() { # make a possibly relative path absolute (relative to $PWD)
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$PWD/$1" ;;
  esac
}

LOCAL_DIR="$(_abs_path "${LOCAL_DIR:-$ROOT/.local}")"
CACHE_DIR="$(_abs_path "${CACHE_DIR:-$ROOT/.cache}")"
LOG_DIR="$LOCAL_DIR/logs"
RUN_DIR="$LOCAL_DIR/run"
INFRA_ENV_FILE="$LOCAL_DIR/infra.env"
export ROOT LOCAL_DIR CACHE_DIR

PIECE="${PIECE:-infra}"
PIECE_LOG="${PIECE_LOG:-}"

# ---------------------------------------------------------------- messages

# All human-readable messages go to stderr so that stdout stays usable for
# machine-readable output (the `export VAR=value` lines printed by `up`).
log() { printf '[%s] %s\n' "$PIECE" "$*" >&2; }
warn() { printf '[%s] warning: %s\n' "$PIECE" "$*" >&2; }

# die <why> [<what to do>]
# Prints "error: <piece>: <why>. <what to do>" to stderr and exits 1.
die() {
  local why="${1%.}" todo="${2:-}"
  if [[ -n "$todo" ]]; then
    printf 'error: %s: %s. %s\n' "$PIECE" "$why" "$todo" >&2
  else
    printf 'error: %s: %s.\n' "$PIECE" "$why" >&2
  fi
  exit 1
}

# Prints the last N (default 20) lines of a log file, indented, to stderr.
show_log_tail() {
  local file="$1" n="${2:-20}"
  [[ -f "$file" ]] || return 0
  printf -- '----- last %s lines of %s -----\n' "$n" "$file" >&2
  tail -n "$n" -- "$file" | sed 's/^/    /' >&2 || true
  printf -- '-----\n' >&2
}

# Monotonic-enough seconds with decimals, for timings.
now_s() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.1f", b - a }'; }

# ---------------------------------------------------------------- waiting

# wait_for <description> <timeout_s> <command...>
# Runs <command...> every 0.3 s until it succeeds. The command runs in the
# current shell, so it may itself call `die` (e.g. "the process exited").
# On timeout, dies naming the piece, what was waited for and its log file.
wait_for() {
  local what="$1" timeout="$2"
  shift 2
  local deadline
  deadline=$(($(date +%s) + ${timeout%.*}))
  while true; do
    if "$@"; then
      return 0
    fi
    if (($(date +%s) >= deadline)); then
      [[ -n "$PIECE_LOG" ]] && show_log_tail "$PIECE_LOG" 20
      die "timed out after ${timeout}s waiting for $what" \
        "${PIECE_LOG:+Look at $PIECE_LOG; }a longer deadline can be given with the *_START_TIMEOUT / *_STOP_TIMEOUT env vars"
    fi
    sleep 0.3
  done
}

# ---------------------------------------------------------------- network

# port_open <host> <port>: succeeds when a TCP connection can be opened.
# Uses bash's /dev/tcp (no nc needed), bounded by a 2 s timeout.
port_open() {
  local host="$1" port="$2"
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$host" "$port" 2>/dev/null
}

# url_host_port <url>: prints "host port" of scheme://[user[:pass]@]host[:port][/...]
# (IPv6 literals in brackets are supported). Prints nothing if unparsable.
url_host_port() {
  local url="$1" default_port="${2:-}" rest hostport host port
  rest="${url#*://}"
  rest="${rest%%/*}"
  rest="${rest%%\?*}"
  hostport="${rest##*@}"
  if [[ "$hostport" == \[* ]]; then
    host="${hostport%%]*}"
    host="${host#[}"
    port="${hostport#*]}"
    port="${port#:}"
  elif [[ "$hostport" == *:* ]]; then
    host="${hostport%%:*}"
    port="${hostport##*:}"
  else
    host="$hostport"
    port=""
  fi
  port="${port:-$default_port}"
  [[ -n "$host" && -n "$port" ]] && printf '%s %s\n' "$host" "$port"
}

# urlencode <string>: percent-encodes everything except unreserved characters.
urlencode() {
  local s="$1" out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c="${s:i:1}"
    case "$c" in
      [a-zA-Z0-9.~_-]) out+="$c" ;;
      *) out+="$(printf '%%%02X' "'$c")" ;;
    esac
  done
  printf '%s\n' "$out"
}

# ---------------------------------------------------------------- pid files

# pid_alive <pid>: the process exists (zombies count as dead).
pid_alive() {
  local pid="$1" state
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || [[ -d "/proc/$pid" ]] || return 1
  if [[ -r "/proc/$pid/stat" ]]; then
    state="$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || true)"
    [[ "$state" != "Z" ]] || return 1
  fi
  return 0
}

# pid_cmdline_has <pid> <text>: the process command line contains <text>
# (guards against a recycled pid belonging to something else).
pid_cmdline_has() {
  local pid="$1" text="$2"
  [[ -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$text"
}

# pidfile_read <file>: prints the pid stored in <file> (first line) if that
# process is alive; fails otherwise.
pidfile_read() {
  local file="$1" pid
  [[ -r "$file" ]] || return 1
  pid="$(head -n 1 -- "$file" 2>/dev/null | tr -dc '0-9')"
  [[ -n "$pid" ]] && pid_alive "$pid" || return 1
  printf '%s\n' "$pid"
}

pidfile_write() { # pidfile_write <file> <pid>
  mkdir -p -- "$(dirname -- "$1")"
  printf '%s\n' "$2" >"$1.tmp.$$" && mv -f -- "$1.tmp.$$" "$1"
}

pidfile_remove() { rm -f -- "$1"; }

# wait_pid_exit <pid> <timeout_s>: succeeds once the pid is gone.
wait_pid_exit() {
  local pid="$1" timeout="$2" deadline
  deadline=$(($(date +%s) + timeout))
  while pid_alive "$pid"; do
    (($(date +%s) < deadline)) || return 1
    sleep 0.3
  done
}

# ---------------------------------------------------------------- locking

# lock_piece <name> [timeout_s]: serialises concurrent up/down runs of the
# same piece through flock on fd 9 (released automatically on exit).
# IMPORTANT: long-running daemons started while holding it must be launched
# with `9>&-` so they do not inherit (and keep) the lock.
lock_piece() {
  local name="$1" timeout="${2:-300}"
  command -v flock >/dev/null 2>&1 || return 0
  mkdir -p -- "$RUN_DIR"
  exec 9>"$RUN_DIR/$name.lock"
  flock -w "$timeout" 9 ||
    die "another run of '$name' held $RUN_DIR/$name.lock for ${timeout}s" \
      "Wait for it to finish, or remove the lock file if no such run exists"
}

# ---------------------------------------------------------------- packages

# ensure_apt_package <package> <command-that-must-exist-afterwards>
# Installs a Debian package when running as root (serialised with a lock so
# that postgres and redis can be set up concurrently); otherwise dies with
# the exact command to run.
ensure_apt_package() {
  local pkg="$1" cmd="$2"
  if [[ "$(id -u)" -ne 0 ]]; then
    die "'$cmd' not found (package $pkg is not installed)" \
      "Install it with: sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y $pkg"
  fi
  command -v apt-get >/dev/null 2>&1 ||
    die "'$cmd' not found and apt-get is not available to install $pkg" \
      "Install $pkg with your system package manager and re-run"
  mkdir -p -- "$RUN_DIR" "$LOG_DIR"
  local apt_log="$LOG_DIR/apt-$pkg.log"
  (
    if command -v flock >/dev/null 2>&1; then
      exec 8>"$RUN_DIR/apt.lock"
      flock -w 900 8 || exit 1
    fi
    log "installing $pkg with apt-get (log: $apt_log) ..."
    {
      apt-get -o DPkg::Lock::Timeout=300 update &&
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y "$pkg"
    } >"$apt_log" 2>&1
  ) || {
    show_log_tail "$apt_log" 20
    die "installing $pkg with apt-get failed (log: $apt_log)" \
      "Run: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $pkg"
  }
}

# ---------------------------------------------------------------- misc

# ensure_port_free <host> <port> <ENV_VAR_TO_OVERRIDE>
ensure_port_free() {
  local host="$1" port="$2" var="$3"
  if port_open "$host" "$port"; then
    die "port $port on $host is already used by another program (not the $PIECE started by these scripts)" \
      "Stop that program or choose another port, e.g. $var=$((port + 1)) bash scripts/infra/up.sh"
  fi
}

# Short stable hash of the repository root (used to name paths outside it).
root_hash() { printf '%s' "$ROOT" | sha256sum | cut -c1-12; }

# Prints "export NAME=value" with the value shell-quoted when necessary.
# (commas stay as they are: a broker list reads host:p1,host:p2 and means the same to bash)
print_export() {
  local quoted
  quoted="$(printf '%q' "$2")"
  printf 'export %s=%s\n' "$1" "${quoted//\\,/,}"
}
