package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
)

// runVersion prints the version and, on a second line, the store
// backends compiled into this binary: "stores: bolt, dqlite", or
// "stores: bolt (built without dqlite)" for a build without the dqlite
// tag (a CGO_ENABLED=0 build among them).
func runVersion(stdout io.Writer) int {
	fmt.Fprintln(stdout, buildinfo.String())
	fmt.Fprintln(stdout, storesLine(builtStores))
	return exitOK
}

// storesLine names the backends of stores; without dqlite it says so.
func storesLine(stores []string) string {
	line := "stores: " + strings.Join(stores, ", ")
	for _, s := range stores {
		if s == "dqlite" {
			return line
		}
	}
	return line + " (built without dqlite)"
}
