#!/usr/bin/env bash
# Installs the Debian packages listed in hack/apt-packages.txt that are not
# installed yet. As root it uses apt-get; otherwise it only reports what is
# missing and fails, so integration tests never pass by skipping.
set -euo pipefail
cd "$(dirname "$0")"
mapfile -t want < <(grep -v '^\s*#' apt-packages.txt | awk 'NF{print $1}')
missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "missing Debian packages for the integration tests: ${missing[*]}" >&2
	echo "install them with: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "installed: ${missing[*]}"
