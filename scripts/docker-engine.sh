#!/usr/bin/env bash
# Starts a Docker engine when none answers, as our test machines need (no bridge network, so
# containers use host or no networking and test traffic stays on loopback).
#   scripts/docker-engine.sh start   -> prints the pid of a daemon it started, or nothing
#   scripts/docker-engine.sh stop PID
set -euo pipefail

case "${1:-start}" in
  start)
    if docker info >/dev/null 2>&1; then exit 0; fi
    if ! command -v dockerd >/dev/null 2>&1; then
      echo "docker-engine: dockerd is not installed (run scripts/setup.sh)" >&2
      exit 1
    fi
    dockerd --host unix:///var/run/docker.sock --bridge=none --iptables=false >/tmp/dockhand-dockerd.log 2>&1 &
    pid=$!
    for _ in $(seq 1 60); do
      if docker info >/dev/null 2>&1; then echo "$pid"; exit 0; fi
      sleep 0.5
    done
    echo "docker-engine: dockerd did not answer within 30 s; see /tmp/dockhand-dockerd.log" >&2
    kill "$pid" 2>/dev/null || true
    exit 1
    ;;
  stop)
    [ -n "${2:-}" ] || exit 0
    kill "$2" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$2" 2>/dev/null || exit 0; sleep 0.25; done
    kill -9 "$2" 2>/dev/null || true
    ;;
esac
