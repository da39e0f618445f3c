//go:build dev

package main_test

// devTags is added to buildTags: this test binary's dev tag, so that the
// dev mode tests run a binary with dev mode.
const devTags = "dev"
