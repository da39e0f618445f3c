// Package pgcluster runs a throwaway PostgreSQL cluster from Debian's
// postgresql package (initdb and pg_ctl, which Debian keeps off PATH in
// /usr/lib/postgresql/<version>/bin): a cluster in a temporary directory,
// listening on 127.0.0.1 on a free port with password (SCRAM)
// authentication for TCP clients. Running as root, the cluster belongs to
// the user "nobody", since PostgreSQL refuses to run as root. The tests'
// region database (internal/pgtest) and dev mode's are one.
package pgcluster
