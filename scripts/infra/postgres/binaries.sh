# Sourced by scripts/infra/postgres.sh: finding (and when missing, installing) the PostgreSQL
# server binaries and client tools. Uses die and ensure_apt_package from scripts/lib/common.sh,
# and PG_BIN / PG_DATA_LINK from the caller.
# shellcheck shell=bash

find_pg_bin() { # sets PG_BIN (directory with initdb, pg_ctl, postgres)
  local wanted_version="${1:-}" dir
  if [[ -n "${PG_BIN:-}" ]]; then
    [[ -x "$PG_BIN/pg_ctl" && -x "$PG_BIN/initdb" ]] ||
      die "PG_BIN=$PG_BIN does not contain initdb and pg_ctl" "Unset PG_BIN or point it at a PostgreSQL bin directory"
    return 0
  fi
  # A data directory can only be run by the major version that created it.
  if [[ -n "$wanted_version" && -x "/usr/lib/postgresql/$wanted_version/bin/pg_ctl" ]]; then
    PG_BIN="/usr/lib/postgresql/$wanted_version/bin"
    return 0
  fi
  dir="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -type d -name bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then
    PG_BIN="$dir"
    return 0
  fi
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    PG_BIN="$(dirname "$(command -v pg_ctl)")"
    return 0
  fi
  return 1
}

ensure_pg_bin() {
  local wanted_version="${1:-}"
  if ! find_pg_bin "$wanted_version"; then
    ensure_apt_package postgresql initdb
    find_pg_bin "$wanted_version" || die "initdb/pg_ctl still not found after installing postgresql" \
      "Check /usr/lib/postgresql/*/bin or set PG_BIN"
  fi
  if [[ -n "$wanted_version" ]]; then
    local have
    have="$("$PG_BIN/pg_ctl" --version | awk '{ print $3 }' | cut -d. -f1)"
    [[ "$have" == "$wanted_version" ]] ||
      die "the data directory was created by PostgreSQL $wanted_version but only PostgreSQL $have binaries were found ($PG_BIN)" \
        "Install postgresql-$wanted_version, or remove $PG_DATA_LINK to start from an empty database"
  fi
}

pg_tool() { # pg_tool <name>: path of a client tool (psql, pg_isready)
  if [[ -n "${PG_BIN:-}" && -x "$PG_BIN/$1" ]]; then
    printf '%s\n' "$PG_BIN/$1"
  elif command -v "$1" >/dev/null 2>&1; then
    command -v "$1"
  elif [[ -z "${PG_BIN:-}" ]] && find_pg_bin && [[ -x "$PG_BIN/$1" ]]; then
    printf '%s\n' "$PG_BIN/$1"
  else
    return 1
  fi
}
