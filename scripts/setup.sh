#!/usr/bin/env bash
# Sets up a clone for its first run: nats-server (from Debian's packages when it is missing; with
# sudo where the user is not root), the npm dependencies from the lockfile, and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's package installs to /usr/sbin, which a non-root user's PATH leaves out; gridemu looks there too.
have_nats() { command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || [ -x /usr/local/sbin/nats-server ]; }
nats_binary() { command -v nats-server 2>/dev/null || ls /usr/sbin/nats-server /usr/local/sbin/nats-server 2>/dev/null | head -1; }

if ! have_nats; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: nats-server is not on PATH and this is not a Debian-like system: install nats-server (https://nats.io) and run again" >&2
    exit 1
  fi
  as_root=()
  if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "setup: nats-server is missing, and installing it needs root: run 'apt-get install -y nats-server' as root, or install sudo" >&2
      exit 1
    fi
    as_root=(sudo)
  fi
  echo "setup: installing nats-server with apt-get"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null
fi
echo "setup: $("$(nats_binary)" --version)"

npm ci --no-audit --no-fund
npm run build
