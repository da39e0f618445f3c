//go:build integration

package installtest

// The versions the tests build: the upgrade goes from oldVersion to
// newVersion. Both come from this tree (the build is reproducible); the
// state of the previous release is the store's v0 fixture.
const (
	oldVersion = "0.9.0"
	newVersion = "1.0.0"
)
