// Package pgtest starts a real PostgreSQL server for tests: Debian's
// postgresql package (initdb and pg_ctl), a cluster in a temporary
// directory, listening on 127.0.0.1 on a free port with password (SCRAM)
// authentication. Running as root, the cluster belongs to the user
// "nobody", since PostgreSQL refuses to run as root. A missing server
// fails the test: integration tests never pass by skipping.
package pgtest
