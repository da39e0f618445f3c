#!/bin/sh
# gpuaas-install-agent URL SHA256|-
#
# Fetches the gpuaas-node-agent package, checks its sha256 unless the digest
# is "-", installs it keeping the config file cloud-init wrote, enables the
# agent and starts it where systemd is the running init (not in an image
# build or a chroot, where the next boot starts it). The outcome goes to
# /var/lib/gpuaas-bootstrap/agent.status. GPUAAS_BOOTSTRAP_ROOT, when set,
# is the root that state lives under (a manual bootstrap run in a test).
set -u
[ $# -eq 2 ] || { echo "usage: $0 URL SHA256|-" >&2; exit 2; }
url=$1 sum=$2
root=${GPUAAS_BOOTSTRAP_ROOT:-}
state=$root/var/lib/gpuaas-bootstrap
pkg="$state/gpuaas-node-agent.deb"
mkdir -p "$state"
fail() { printf 'failed step=%s\n' "$1" >"$state/agent.status"; exit 1; }

curl -fsSL --retry 5 --retry-delay 3 -o "$pkg" "$url" || fail fetch
if [ "$sum" != "-" ]; then
	printf '%s  %s\n' "$sum" "$pkg" | sha256sum -c --status || { rm -f "$pkg"; fail verify; }
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -o Dpkg::Options::=--force-confold "$pkg" || fail install
systemctl enable gpuaas-node-agent.service || fail enable
# sd_booted(3): without a running systemd, "systemctl start" fails (or is
# ignored inside a chroot) and there is nothing to start yet.
if [ -d "$root/run/systemd/system" ]; then
	systemctl start gpuaas-node-agent.service || fail start
fi
echo ok >"$state/agent.status"
