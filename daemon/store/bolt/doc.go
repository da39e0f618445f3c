// Package bolt is the embedded bbolt backend of lifecycle.Store: one file,
// no server, what a single-region site needs.
//
// Records are JSON values in one bucket per record kind, with small index
// buckets for uniqueness (site names, node hostnames, token hashes). Every
// Store method is one bbolt transaction, so each is atomic and a crash
// leaves either all of an operation or none of it.
//
// The file's layout has a schema version in the meta bucket (none: 0).
// Open creates a new file at Latest and migrates an older one after
// copying it aside (schema.go, upgrade.go, migrations.go); Status and
// Migrate are the same steps for the `maas-sidecar migrate` command.
package bolt
