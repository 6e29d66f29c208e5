#!/usr/bin/env bash
# Sets Dockhand up if needed, then runs it:
#   scripts/dockhand.sh            the desktop app (needs the Electron binary)
#   scripts/dockhand.sh serve      headless service + browser UI (prints the link)
#   scripts/dockhand.sh key|doctor
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/setup.sh" >&2
source "$here/lib/node.sh"
ensure_node
cd "$DOCKHAND_ROOT"
if [ $# -eq 0 ]; then
  exec npx electron-vite preview
fi
exec node bin/dockhand.js "$@"
