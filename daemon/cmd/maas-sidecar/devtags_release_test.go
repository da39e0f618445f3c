//go:build !dev

package main_test

// devTags: see devtags_test.go; without the dev tag the binary under test
// is the release build.
const devTags = ""
