//go:build !dqlite

package main_test

// buildTags are the tags TestMain builds the binary with: this test
// binary's own, so that the dqlite tests run a binary with the dqlite store.
const buildTags = ""
