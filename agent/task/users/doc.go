// Package users is the allocation.revoke_user and terminal.close tasks.
//
// Tenant users are the /etc/passwd entries (under the host root) whose
// UID lies in login.defs' UID_MIN..UID_MAX (shadow's defaults 1000 and
// 60000), except nobody (65534), the agent's own UID and the kept users
// (the agent's configured keep_users, "ubuntu" by default, plus the
// payload's). terminal.close ends their sessions ("loginctl
// terminate-user", tolerated where logind is absent) and SIGKILLs every
// process whose real UID is theirs, found by walking /proc as Slurm's
// epilog does (gpu-tools.md §5); allocation.revoke_user does the same and
// then removes them with "userdel -r". With no users named, any process
// of a tenant-range UID counts, including UIDs no longer in /etc/passwd.
// Both return evidence and fail when a process or user is left.
package users
