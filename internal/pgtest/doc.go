// Package pgtest starts a real PostgreSQL server for tests
// (internal/pgcluster) and removes it at the test's end. A missing server
// fails the test: integration tests never pass by skipping.
package pgtest
