// Package storage is the node.storage_cleanup task.
//
// Mode local empties /tmp, /var/tmp and the scratch paths (the agent's
// configured ones plus the payload's) and nothing else. A scratch path
// must lie at or under one of the host's cleanup.scratch_roots and never
// in a system or home tree (agent/scratchpath), whatever the signed task
// says; any other is refused untouched and fails the task. Each directory is
// kept, its contents removed through an os.Root opened on it, so no path
// can resolve outside it. Symlinks are never followed: a link inside is
// removed as a link, and a scratch path that is (or passes through) a
// symlink is refused untouched. Mount points under a scratch path (from
// /proc/self/mountinfo, or a different device) are not crossed; they are
// left and reported.
//
// Mode drives erases the tenant drives the payload names with their own
// sanitize or format, proves it with canaries read back, and makes their
// filesystems again (agent/task/drives); it touches nothing else.
//
// Mode weka unmounts every wekafs mount ("umount", deepest first), proves
// from mountinfo that none is left, and removes the configured tenant
// Weka client config paths (by default /root/.weka, where the weka CLI
// keeps its login token). Mode all runs weka then local, so a Weka mount
// under a scratch path is gone before the scratch path is emptied.
package storage
