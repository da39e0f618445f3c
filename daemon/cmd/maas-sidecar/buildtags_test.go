//go:build !dqlite

package main_test

// buildTags are the tags TestMain builds the binary with: this test
// binary's own, so that the dqlite tests run a binary with the dqlite store.
const buildTags = ""

// storesLine is what `version` says of the store backends of a binary
// built with buildTags.
const storesLine = "stores: bolt (built without dqlite)"
