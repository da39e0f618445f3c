#!/bin/sh
# Prints the Debian version of the checked-out commit. A commit tagged
# vX.Y.Z is X.Y.Z (vX.Y.Z-rc1 is X.Y.Z~rc1, which sorts before X.Y.Z); any
# other commit is <last tag or 0.0.0>+git<commit date, UTC>.<commit>, so
# snapshots sort after the release they follow and by date among
# themselves.
set -eu
deb() { echo "${1#v}" | sed 's/-/~/'; }
if tag=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null); then
	deb "$tag"
	exit 0
fi
base=0.0.0
if tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null); then
	base=$(deb "$tag")
fi
date=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d)
echo "$base+git$date.$(git rev-parse --short=12 HEAD)"
