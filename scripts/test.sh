#!/usr/bin/env bash
# Runs every test on a fresh machine: sets up, starts a Docker engine if none runs, then runs lint,
# typecheck, build, unit, integration and end-to-end tests inside a headless keychain session
# (D-Bus + an unlocked gnome-keyring with a throwaway HOME, so the real keychain is used and left clean).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/setup.sh"
source "$here/lib/node.sh"
ensure_node
cd "$DOCKHAND_ROOT"

# With CI set (as CI services set it), a missing Docker engine or keychain fails the run: the tests that
# need them would otherwise pass by skipping. Elsewhere those tests skip, each printing why.
on_ci() { case "${CI:-}" in "" | 0 | false | FALSE | False) return 1 ;; *) return 0 ;; esac; }

if docker_pid="$(bash "$here/docker-engine.sh" start)"; then
  :
elif on_ci; then
  echo "test: CI is set and no Docker engine runs (see above), so the sandbox tests cannot run" >&2
  exit 1
else
  echo "test: no Docker engine runs (see above); the tests that need one will skip" >&2
  docker_pid=""
fi
cleanup() { bash "$here/docker-engine.sh" stop "$docker_pid"; }
trap cleanup EXIT

# The locally built sandbox image (no registry is needed); cached after the first build. A failed build
# stops the run.
if docker info >/dev/null 2>&1; then
  bash "$here/sandbox-image.sh"
  export DOCKHAND_SANDBOX_IMAGE="dockhand/sandbox:$(node -p 'require("./package.json").version')"
fi

echo "test: Node $(node -v) ($(command -v node))"
# The packaging test installs from the npm cache offline: keep the user's cache under the throwaway HOME.
export npm_config_cache="${npm_config_cache:-$(npm config get cache)}"
test_home="$(mktemp -d /tmp/dockhand-test-home.XXXXXX)"
HOME="$test_home" dbus-run-session -- bash -c '
  printf dockhand-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  npm test
'
