#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests that read RoomKit's and kaboo's PostgreSQL stores.
#
#   pgcluster.sh start ENV_FILE DATA_DIR   initdb, start on 127.0.0.1 at a free port, load both fixture dumps
#   pgcluster.sh stop ENV_FILE             stop the server and remove its folder
#
# ENV_FILE gets KEY=VALUE lines the tests read (SIGHTLINE_PG_*). When PostgreSQL's server binaries are not
# installed it gets SIGHTLINE_PG_UNAVAILABLE=<why> instead, and the tests skip saying so. The server runs as an
# unprivileged user (postgres, when this runs as root: initdb refuses root), listens on loopback only, and uses
# passwords over TCP, so a wrong password is refused as on a real server.
set -euo pipefail

cmd=${1:?start or stop}
env_file=${2:?env file}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "$cmd" = stop ]; then
  [ -f "$env_file" ] || exit 0
  dir=$(sed -n 's/^SIGHTLINE_PG_DIR=//p' "$env_file")
  bindir=$(sed -n 's/^SIGHTLINE_PG_BINDIR=//p' "$env_file")
  if [ -n "$dir" ] && [ -d "$dir/data" ]; then
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
  fi
  rm -f "$env_file"
  exit 0
fi

data_dir=${3:?folder of the fixture dumps}
bindir=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -x "$candidate/initdb" ]; then bindir=$candidate; break; fi
done
if [ -z "$bindir" ]; then
  echo "SIGHTLINE_PG_UNAVAILABLE=PostgreSQL's server (initdb, pg_ctl) is not installed: packaging/install-deps.sh installs it" >"$env_file"
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
  echo "SIGHTLINE_PG_UNAVAILABLE=running as root without a postgres user to run the server as" >"$env_file"
  exit 0
fi

# A stale cluster of an earlier run that was killed before its cleanup.
"$0" stop "$env_file"

dir=$(mktemp -d /tmp/sightline-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
admin_password=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$admin_password" >"$dir/pwfile"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir/pwfile"
as_owner "$bindir/initdb" -D "$dir/data" -U sightline_owner --pwfile="$dir/pwfile" -A scram-sha-256 -E UTF8 \
  --no-locale >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
rm -f "$dir/pwfile"

# A free port: the first of a range that nothing answers on.
port=""
for p in $(seq 55432 55532); do
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
done
[ -n "$port" ] || { echo "no free port in 55432-55532" >&2; exit 1; }

as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }

export PGHOST=127.0.0.1 PGPORT=$port PGUSER=sightline_owner PGPASSWORD=$admin_password
psql() { command "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
# pg_dump 15.18 opens its dumps with \restrict, which psql before 15.14 rejects: those lines are left out.
load() { grep -v '^\\\(un\)\?restrict ' "$2" | psql -d "$1" >/dev/null; }

psql -d postgres -c "CREATE DATABASE roomkit" -c "CREATE DATABASE kaboo" -c "CREATE DATABASE neither" \
  -c "CREATE DATABASE roomkit_live" -c "CREATE DATABASE kaboo_live"
load roomkit "$data_dir/roomkit/support_pg.sql"
load kaboo "$data_dir/agui/kaboo_fixtures.sql"
# Copies that the live-follow tests write to while others read the originals.
load roomkit_live "$data_dir/roomkit/support_pg.sql"
load kaboo_live "$data_dir/agui/kaboo_fixtures.sql"
psql -d neither -c "CREATE TABLE invoices(id int PRIMARY KEY, total numeric)"
# The roles a support desk would have: one that may only read, and one that may connect but read nothing.
psql -d postgres -c "CREATE ROLE reader LOGIN PASSWORD 'reader-secret'" \
  -c "CREATE ROLE outsider LOGIN PASSWORD 'outsider-secret'"
for db in roomkit kaboo neither roomkit_live kaboo_live; do
  psql -d "$db" -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader"
done

cat >"$env_file" <<EOF
SIGHTLINE_PG_DIR=$dir
SIGHTLINE_PG_BINDIR=$bindir
SIGHTLINE_PG_HOST=127.0.0.1
SIGHTLINE_PG_PORT=$port
SIGHTLINE_PG_ADMIN=sightline_owner
SIGHTLINE_PG_ADMIN_PASSWORD=$admin_password
SIGHTLINE_PG_READER=reader
SIGHTLINE_PG_READER_PASSWORD=reader-secret
SIGHTLINE_PG_OUTSIDER=outsider
SIGHTLINE_PG_OUTSIDER_PASSWORD=outsider-secret
EOF
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)"
