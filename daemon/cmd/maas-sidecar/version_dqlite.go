//go:build dqlite

package main

// The dqlite store is linked in (cgo, libdqlite); the blank import makes
// the claim of builtStores true even before a command opens the store.
import _ "github.com/gpuaas/maas-sidecar/daemon/store/dqlite"

// builtStores are the store backends of this binary.
var builtStores = []string{"bolt", "dqlite"}
