//go:build dqlite

package main_test

// buildTags: see buildtags_test.go.
const buildTags = "dqlite,libsqlite3"

// storesLine: see buildtags_test.go.
const storesLine = "stores: bolt, dqlite"
