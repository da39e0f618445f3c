// Package residue finds, and removes where the host lets it, what the
// departing tenants owned: files and directories anywhere on the host's
// own filesystems (walked under the host root without following links,
// never entering /proc, /sys, /run or an allowlisted or foreign mount),
// POSIX shared memory and message queues (/dev/shm, /dev/mqueue), SysV
// IPC objects (/proc/sysvipc), crontab and at spool entries, and
// systemd lingering (/var/lib/systemd/linger). A tenant is a UID or GID
// in the tenant range (hostinfo.Tenants) that no kept user holds: after
// allocation.revoke_user removed the accounts, whatever such an ID still
// owns is residue the next tenant given that ID would inherit.
package residue
