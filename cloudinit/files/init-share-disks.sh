#!/bin/bash
# ======================================================================
#  DESTRUCTIVE: this script partitions and formats disks. Every byte on
#  a disk it formats is lost.
# ======================================================================
# gpuaas-init-share-disks --confirm-destroy [--force] [--fstype ext4|xfs]
#
# Gives each eligible disk one GPT partition and a filesystem, mounts it at
# the next free /shareN and records it in /etc/fstab (nofail).
#
# Never touched, with or without --force:
#   - the disk(s) holding the root filesystem;
#   - any disk with a mounted filesystem or active swap anywhere below it;
#   - removable and read-only disks.
# Skipped unless --force:
#   - disks with partitions or holders (LVM, RAID, crypt) below them;
#   - disks with any signature (partition table, filesystem, RAID, LVM).
#
# GPUAAS_SHARE_ROOT prefixes /etc/fstab and /shareN (fixture trees in tests).
set -euo pipefail

confirm=0 force=0 fstype=ext4
while [ $# -gt 0 ]; do
	case $1 in
	--confirm-destroy) confirm=1 ;;
	--force) force=1 ;;
	--fstype) fstype=${2:-}; shift ;;
	*) echo "unknown argument: $1" >&2; exit 2 ;;
	esac
	shift
done
[ "$confirm" = 1 ] || { echo "refusing to run without --confirm-destroy" >&2; exit 2; }
case $fstype in ext4 | xfs) ;; *) echo "unsupported --fstype: $fstype" >&2; exit 2 ;; esac
root=${GPUAAS_SHARE_ROOT:-}
log() { echo "gpuaas-init-share-disks: $*" >&2; }

# root_disks prints the whole disks below the root filesystem's device.
root_disks() {
	local src
	src=$(findmnt -nvo SOURCE /)
	lsblk -nsrpo NAME,TYPE "$src" | awk '$2 == "disk" { print $1 }'
}

# eligible DISK succeeds when DISK may be formatted.
eligible() {
	local disk=$1
	if grep -qxF "$disk" <<<"$never"; then
		log "skip $disk: holds the root filesystem"
		return 1
	fi
	if [ -n "$(lsblk -nrpo MOUNTPOINT "$disk" | tr -d '[:space:]')" ]; then
		log "skip $disk: mounted or swap in use"
		return 1
	fi
	if [ "$force" = 1 ]; then
		return 0
	fi
	if [ "$(lsblk -nrpo NAME "$disk" | wc -l)" -gt 1 ]; then
		log "skip $disk: has partitions or holders (use --force to wipe)"
		return 1
	fi
	if blkid -p "$disk" >/dev/null 2>&1; then
		log "skip $disk: has a signature (use --force to wipe)"
		return 1
	fi
}

# next_share prints the first /shareN neither in fstab nor mounted.
next_share() {
	local n=1
	while grep -qs "[[:space:]]/share$n[[:space:]]" "$root/etc/fstab" || mountpoint -q "$root/share$n"; do
		n=$((n + 1))
	done
	echo "$n"
}

format() {
	local disk=$1 n part uuid
	n=$(next_share)
	log "DESTROYING $disk -> /share$n ($fstype)"
	wipefs -a "$disk"
	parted -s "$disk" mklabel gpt mkpart "share$n" "$fstype" 1MiB 100%
	udevadm settle
	part=$(lsblk -nrpo NAME,TYPE "$disk" | awk '$2 == "part" { print $1; exit }')
	[ -n "$part" ] || { log "no partition on $disk after parted"; return 1; }
	case $fstype in
	ext4) mkfs.ext4 -F -q -L "share$n" "$part" ;;
	xfs) mkfs.xfs -f -q -L "share$n" "$part" ;;
	esac
	uuid=$(blkid -s UUID -o value "$part")
	mkdir -p "$root/share$n"
	echo "UUID=$uuid /share$n $fstype defaults,nofail 0 2" >>"$root/etc/fstab"
	mount "$part" "$root/share$n"
}

never=$(root_disks)
[ -n "$never" ] || { log "cannot find the root disk; refusing to touch any disk"; exit 1; }
lsblk -dnrpo NAME,TYPE,RM,RO | sort -V | while read -r disk type rm ro; do
	[ "$type" = disk ] && [ "$rm" = 0 ] && [ "$ro" = 0 ] || continue
	if eligible "$disk"; then
		format "$disk"
	fi
done
