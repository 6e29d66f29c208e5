#!/usr/bin/env bash
# Sets Dockhand up if needed, then runs it:
#   scripts/dockhand.sh            the desktop app: the built app in the Electron binary
#   scripts/dockhand.sh serve      headless service + browser UI (prints the link)
#   scripts/dockhand.sh key|doctor
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/setup.sh" >&2
source "$here/lib/node.sh"
ensure_node
cd "$DOCKHAND_ROOT"
if [ $# -eq 0 ]; then
  # The app set-up has just built (out/), in the Electron binary the electron package installed.
  if ! electron="$(node scripts/lib/electron-binary.ts)"; then
    echo "dockhand: the desktop app cannot start here (no Electron binary, see above)." \
      "\`scripts/dockhand.sh serve\` runs the service and the browser UI without it." >&2
    exit 1
  fi
  exec "$electron" .
fi
exec node bin/dockhand.js "$@"
