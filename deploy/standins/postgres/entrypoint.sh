#!/bin/sh
# TEST-ONLY: the part of the official postgres image's entrypoint that deploy/compose.yaml relies on.
set -eu
if [ "${1#-}" != "$1" ]; then set -- postgres "$@"; fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  user="${POSTGRES_USER:-postgres}"
  db="${POSTGRES_DB:-$user}"
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
    psql -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres -c "CREATE DATABASE \"$db\""
    pg_ctl -D "$PGDATA" -m fast -w stop
  fi
fi
exec "$@"
