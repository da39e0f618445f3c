#!/bin/sh
# gpuaas-site-bootstrap URL VERSION SHA256|-
#
# Fetches the infra-owned site bootstrap bundle, checks its sha256 unless
# the digest is "-", and runs it. The outcome goes to
# /var/lib/gpuaas-bootstrap/site.status, so a failure here is told apart
# from a failure of the GPUaaS bootstrap that follows.
set -u
[ $# -eq 3 ] || { echo "usage: $0 URL VERSION SHA256|-" >&2; exit 2; }
url=$1 version=$2 sum=$3
state=/var/lib/gpuaas-bootstrap
bundle="$state/site-bundle-$version"
mkdir -p "$state"
record() { printf '%s version=%s\n' "$1" "$version" >"$state/site.status"; }

if ! curl -fsSL --retry 5 --retry-delay 3 -o "$bundle" "$url"; then
	record "failed step=fetch"
	exit 1
fi
if [ "$sum" != "-" ] && ! printf '%s  %s\n' "$sum" "$bundle" | sha256sum -c --status; then
	record "failed step=verify"
	exit 1
fi
chmod 0700 "$bundle"
if "$bundle"; then
	record ok
else
	rc=$?
	record "failed step=run rc=$rc"
	exit "$rc"
fi
