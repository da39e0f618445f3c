// Package hostinfo reads what the cleanup and validation tasks need to
// know about the host, always under the agent's host root: local users
// (/etc/passwd) and the tenant UID range (/etc/login.defs), processes
// (/proc/<pid>/status and fd links) and mounts (/proc/self/mountinfo).
// It only reads; the tasks act through the exec seam.
package hostinfo
