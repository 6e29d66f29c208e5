#!/usr/bin/env bash
# Installs everything Dockhand needs on a Debian/Ubuntu machine, idempotently:
# system packages (Docker engine, libsecret + gnome-keyring + D-Bus, Chromium, Xvfb, debootstrap),
# the pinned Node.js line, npm packages from the lockfile, the built app and, where no registry is
# reachable, Dockhand's own sandbox image.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/node.sh"
cd "$DOCKHAND_ROOT"

APT_PACKAGES=(docker.io libsecret-1-dev gnome-keyring dbus dbus-x11 chromium xvfb debootstrap git ca-certificates)

install_system_packages() {
  command -v dpkg >/dev/null 2>&1 || { echo "setup: not a Debian-based system; install the equivalents of: ${APT_PACKAGES[*]}" >&2; return 0; }
  local missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root to install: ${missing[*]}" >&2; return 1; }
    sudo="sudo"
  fi
  echo "setup: installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install_npm_packages() {
  local stamp="node_modules/.dockhand-lock-$(sha256sum package-lock.json | cut -c1-16)-node$DOCKHAND_NODE_VERSION"
  [ -f "$stamp" ] && return 0
  echo "setup: installing npm packages"
  npm ci --no-fund --no-audit --loglevel=error
  touch "$stamp"
}

# Electron's binary, downloaded the electron package's own way (`install-electron`, from GitHub or
# $ELECTRON_MIRROR). Where that fails, everything but the desktop window still works: say so once and go on.
install_electron_binary() {
  node scripts/lib/electron-binary.ts >/dev/null 2>&1 && return 0
  local skipped="node_modules/.dockhand-electron-skipped-$(node -p 'require("electron/package.json").version')"
  [ -f "$skipped" ] && return 0
  echo "setup: downloading Electron's binary"
  local output
  if output=$(npx install-electron --no 2>&1); then return 0; fi
  echo "setup: SKIPPED Electron's binary: its download from GitHub (or \$ELECTRON_MIRROR) failed" \
    "($(grep -m1 -E 'Error|error' <<<"$output" || tail -n1 <<<"$output"))." >&2
  echo "setup: the desktop app cannot start on this machine; \`scripts/dockhand.sh serve\` runs the service and the" \
    "browser UI. Retry the download with \`npx install-electron --no\` once it is reachable." >&2
  touch "$skipped"
}

build_app() {
  local newest
  newest=$(find src electron.vite.config.ts package-lock.json -newer out/.built -print -quit 2>/dev/null || echo rebuild)
  if [ -f out/.built ] && [ -z "$newest" ]; then return 0; fi
  echo "setup: building"
  npx electron-vite build --logLevel warn
  touch out/.built
}

# Where no registry is reachable, the default sandbox image cannot be pulled and Dockhand's own image stands
# in: build it now (about 3 minutes the first time, then skipped) rather than at the first conversation.
build_sandbox_image() {
  if ! docker info >/dev/null 2>&1; then
    echo "setup: no Docker engine answers; Dockhand builds its sandbox image when a conversation first needs it"
    return 0
  fi
  if timeout 20 docker manifest inspect debian:bookworm-slim >/dev/null 2>&1; then return 0; fi
  bash scripts/sandbox-image.sh \
    || echo "setup: the sandbox image could not be built; conversations in Docker need it (npm run sandbox:image)" >&2
}

install_system_packages
ensure_node
install_npm_packages
install_electron_binary
build_app
build_sandbox_image
