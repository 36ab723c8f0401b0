#!/bin/sh
# The mongodb stand-in (deploy/standins/Dockerfile): a PostgreSQL cluster in /data/db (created on first start,
# reachable inside the container only), then FerretDB on 27017 with the root user of MONGO_INITDB_ROOT_USERNAME
# and _PASSWORD in the admin database. Both run as the postgres user; FerretDB is the container's main process.
set -eu

: "${MONGO_INITDB_ROOT_USERNAME:?MONGO_INITDB_ROOT_USERNAME is required}"
: "${MONGO_INITDB_ROOT_PASSWORD:?MONGO_INITDB_ROOT_PASSWORD is required}"

if [ "$(id -u)" = 0 ]; then
  mkdir -p /data/db
  chown postgres:postgres /data/db
  exec setpriv --reuid postgres --regid postgres --init-groups "$0" "$@"
fi

pg_bin=$(echo /usr/lib/postgresql/*/bin)
cluster=/data/db/postgresql
if [ ! -s "$cluster/PG_VERSION" ]; then
  "$pg_bin/initdb" -D "$cluster" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-instructions
fi
"$pg_bin/postgres" -D "$cluster" -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp &
until "$pg_bin/pg_isready" -q -h 127.0.0.1 -U postgres; do sleep 0.2; done
"$pg_bin/psql" -q -h 127.0.0.1 -U postgres -tc "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'" | grep -q 1 ||
  "$pg_bin/createdb" -h 127.0.0.1 -U postgres ferretdb

exec ferretdb --handler=postgresql --postgresql-url=postgres://postgres@127.0.0.1:5432/ferretdb \
  --listen-addr=:27017 --state-dir=/tmp --telemetry=disable --debug-addr=- \
  --test-enable-new-auth --setup-database=admin \
  --setup-username="$MONGO_INITDB_ROOT_USERNAME" --setup-password="$MONGO_INITDB_ROOT_PASSWORD"
