#!/usr/bin/env bash
# TEST-ONLY: builds stand-ins for the official node, postgres, redis and nginx images from Debian's packages and
# the npm registry's Node binaries, tagged with the names deploy/compose.yaml uses (see README.md here).
# Never run this on a production server: there, Compose pulls the official images.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
registry="${REGISTRY:-}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
npm_registry="${NPM_REGISTRY:-https://registry.npmjs.org}"
cache="${HUAFANG_DEPLOY_CACHE:-$HOME/.cache/huafang-deploy}"
rootfs_tar="$cache/bookworm-minbase-$(dpkg --print-architecture).tar"
base=huafang-standin/debian:bookworm-minbase

mkdir -p "$cache"
if [ ! -s "$rootfs_tar" ]; then
  echo "debootstrap: Debian bookworm minbase into $rootfs_tar (once; cached)"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; exit 1; }
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
  tar -C "$work/rootfs" -cf "$rootfs_tar.partial" .
  mv "$rootfs_tar.partial" "$rootfs_tar"
fi
# Imported again only when the tarball changed (its digest is the image's label).
digest="$(sha256sum "$rootfs_tar" | cut -c1-16)"
if [ "$(docker image inspect -f '{{ index .Config.Labels "rootfs"}}' "$base" 2>/dev/null || true)" != "$digest" ]; then
  docker import --change "LABEL rootfs=$digest" --change 'CMD ["bash"]' "$rootfs_tar" "$base"
fi

build() {
  local tag="$1" dir="$2"
  shift 2
  echo "stand-in $tag"
  docker build -t "$tag" --build-arg BASE="$base" --build-arg DEBIAN_MIRROR="${DEBIAN_MIRROR:-}" "$@" "$here/$dir"
}
# The Node binary and npm come from the npm registry (through a TLS-intercepting proxy's CA when one is given).
build "${registry}node:24-bookworm-slim" node \
  --build-arg NPM_REGISTRY="$npm_registry" --build-arg EXTRA_CA_CERT="${EXTRA_CA_CERT:-}"
build "${registry}postgres:15" postgres
build "${registry}redis:7" redis
build "${registry}nginx:1.28" nginx
