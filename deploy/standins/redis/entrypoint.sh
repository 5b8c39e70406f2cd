#!/bin/sh
# TEST-ONLY: like the official redis image, arguments that start with - (or a .conf file) go to redis-server.
set -eu
case "${1:-}" in -*|*.conf) set -- redis-server "$@" ;; esac
exec "$@"
