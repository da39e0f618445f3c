// Package signedbackup frames a store backup (a bbolt file or an export
// stream) with an Ed25519 signature of the daemon's task-signing key, so
// that a restore refuses a backup that was altered, cut short or made by
// someone without that key before anything is written to a store.
//
// Layout: Magic, then the payload as it is, then a trailer of TrailerSize
// bytes: the tag "MSSIGv1\x00", the payload's length (uint64, big
// endian), its SHA-256, and the Ed25519 signature of
// "maas-sidecar backup v1\x00" || length || SHA-256. The signed message
// starts with that domain string, so it can never be taken for a task's
// signing payload (which starts with a length), nor the reverse.
//
// Writing and verifying stream: neither holds the payload in memory.
package signedbackup
