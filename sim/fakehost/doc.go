// Package fakehost is a simulated host's account, process and mount
// tools for development hosts and end-to-end tests: kill, userdel,
// loginctl and umount acting on a host root as the real tools act on a
// host (processes are /proc/<pid> entries, users are /etc/passwd,
// /etc/shadow and /etc/group lines, mounts are /proc/self/mountinfo
// lines), with the real tools' exit codes for the cases the agent's tasks
// handle; systemctl reboot starts a new boot (another boot id, the held
// driver and GPU processes gone) without restarting anything. It also
// provisions a host root (the tools on its PATH, base
// accounts and mounts, a fake GPU inventory for sim/fakesmi),
// injects tenant residue into it and reports what residue is left.
// sim/cmd/fakehost is its command; it is never linked into the agent.
package fakehost
