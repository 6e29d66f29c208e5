#!/usr/bin/env bash
# Builds Dockhand's own sandbox image (resources/sandbox/Dockerfile), by default as dockhand/sandbox:<version>;
# `sandbox-image.sh IMAGE` names another tag. The service runs this script too when it needs the image
# (offline, with the configured image missing): each `Step N/M` line it prints is build progress.
# Base image, first found: DOCKHAND_SANDBOX_BASE if set; debian:bookworm-slim if present or pullable;
# else an offline Debian root filesystem made with debootstrap and `docker import`ed (about 2 minutes).
# Skips everything when the image already exists (set DOCKHAND_REBUILD_IMAGE=1 to force).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$root/package.json")"
image="${1:-dockhand/sandbox:$version}"
offline_base="dockhand/sandbox-base:bookworm"
packages="bash,git,ca-certificates,python3,procps,ripgrep,nodejs,make,patch,sudo,less,file,unzip,xz-utils"

if [ -z "${DOCKHAND_REBUILD_IMAGE:-}" ] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "sandbox-image: $image is present"
  exit 0
fi

base="${DOCKHAND_SANDBOX_BASE:-}"
if [ -z "$base" ]; then
  if docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
    base="debian:bookworm-slim"
  elif docker image inspect "$offline_base" >/dev/null 2>&1; then
    base="$offline_base"
  elif timeout 60 docker pull debian:bookworm-slim >/dev/null 2>&1; then
    base="debian:bookworm-slim"
  else
    command -v debootstrap >/dev/null 2>&1 || { echo "sandbox-image: no registry and no debootstrap (apt-get install debootstrap)" >&2; exit 1; }
    echo "sandbox-image: no registry reachable; building an offline Debian base with debootstrap..."
    rootfs="$(mktemp -d /tmp/dockhand-rootfs.XXXXXX)"
    trap 'rm -rf "$rootfs"' EXIT
    debootstrap --variant=minbase --include="$packages" bookworm "$rootfs" >/tmp/dockhand-debootstrap.log 2>&1 \
      || { echo "sandbox-image: debootstrap failed, see /tmp/dockhand-debootstrap.log" >&2; exit 1; }
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -c . | docker import -c 'CMD ["/bin/bash"]' - "$offline_base" >/dev/null
    base="$offline_base"
  fi
fi

echo "sandbox-image: building $image from $base"
DOCKER_BUILDKIT=0 docker build --network host --build-arg "BASE=$base" -t "$image" "$root/resources/sandbox" \
  | grep --line-buffered -E '^Step [0-9]+/[0-9]+ '
echo "sandbox-image: $image is ready"
