// Package dqlite is lifecycle.Store on dqlite: SQLite replicated by Raft
// (go-dqlite's app package against Debian's libdqlite). It is built only
// with the dqlite build tag and cgo (go build -tags dqlite,libsqlite3); a
// default or CGO_ENABLED=0 build leaves it out and keeps bbolt only.
//
// # Opening
//
// Open(ctx, dir, Options{Address: "10.0.0.1:9001", Join: peers, TLS: t})
// starts the node whose data lives in dir, waits until it formed its
// cluster (Join empty, first start), joined the members in Join, or
// rejoined its own (a restart, Join ignored), opens the store's database
// and brings its schema to Latest. Closing that store hands leadership and
// the node's vote over to another member (bounded by 5 s) and stops the
// node. StartNode and Node.Open do the same in two steps, for a process
// that keeps the node (Node.Leader, Node.Members) or opens more than one
// database on it.
//
// TLS secures the traffic between nodes (Raft and the queries a node sends
// to the leader) with the daemon's internal CA; nil is plaintext and is
// meant for loopback only. A node whose certificate another CA issued
// cannot join.
//
// # Consistency and availability
//
// Every query runs on the Raft leader (go-dqlite connects to it from any
// member), so reads are as fresh as writes; each statement is a network
// round trip to the leader. Every write is one SQL transaction, and a
// fenced write reads the site's lease epoch inside that transaction, as
// the bbolt store does. The operations' reads of one record by key (and
// of a run's journal) send their statements without BEGIN and COMMIT,
// each a transaction of its own (pointread.go); the store's lists,
// counts and exports keep one transaction.
//
// # Shared commits and the write lock
//
// One local write transaction runs at a time (writelock.go). The writes
// many callers make at once (the runs' journal appends, op.Backend's
// Batch) go to one committer that runs all those waiting in one
// transaction and one Raft commit, as bbolt's Batch shares an fsync
// (batch.go); a function that fails is taken out and run alone, so its
// error and its lack of effect are its own. Lease claims and renewals
// take the write lock ahead of every queued write: they wait for the
// transaction in progress only, never for the queue, so a site's batch
// of writes cannot push its renewal past the lease's deadline.
// Store.Calls counts the requests and commits sent to the leader. A transaction that meets a
// transient error (a leadership change, a broken connection, no leader
// yet, a busy database) is retried whole with a bounded backoff; when
// Options.Timeout passes without a leader that answers (a lost quorum)
// the operation fails with lifecycle.CodeUnavailable ("the store has no
// quorum ..."), which the admin API answers with 503. Every call to the
// leader, COMMIT included, is bounded by that deadline (conn.go).
//
// Reads need the leader too. With Options.Replica the store keeps a local
// read replica, rebuilt every Options.ReplicaEvery (replica.go): a read
// whose context allows a stale answer (lifecycle.AllowStale) is answered
// from it when the leader does not answer, and marked stale; other reads
// and every write fail unavailable without quorum.
//
// # Schema
//
// Records are JSON in a data column of one table per record kind; the
// columns the store looks up, orders or constrains on (ids, site, name,
// hostname, status, epoch, sequence numbers, delivery times) are real
// columns beside it. The schema carries a version (table schema_version)
// and is moved by ordered SQL migrations, each in a transaction that
// re-reads the version, so members opening the store at once create it
// once.
package dqlite
