//go:build !dqlite

package main

// builtStores are the store backends of this binary: the build left the
// dqlite tag (and cgo) out.
var builtStores = []string{"bolt"}
