// Package raft samples the store's Raft cluster every few seconds and
// exports what this member saw: its own role, whether a leader answers
// (the quorum), the members by role and the leader changes observed. The
// daemon wires it for a dqlite store only; the cluster is read through
// the small Source interface, so a fake drives the tests.
package raft
