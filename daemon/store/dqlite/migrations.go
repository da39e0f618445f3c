//go:build dqlite

package dqlite

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// migration is one schema step: SQL statements, run in one transaction
// that also records Version. A step that brings the records already
// stored up to it does so set-based, in SQL: one call to the leader
// however large the store.
type migration struct {
	lifecycle.Migration
	stmts []string
}

// migrations are the schema's steps, in order; a new database runs them
// all in one transaction. Append only: a released step never changes.
var migrations = []migration{{
	Migration: lifecycle.Migration{Version: 1, Name: "sites, policies, nodes, runs and journal, leases, audit, tokens, agent tasks, enrollment"},
	stmts: []string{
		`CREATE TABLE sites (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, data TEXT NOT NULL)`,
		`CREATE TABLE site_policies (site_id TEXT PRIMARY KEY REFERENCES sites(id), data TEXT NOT NULL)`,
		// host_key is the lower-cased hostname while the node is not
		// deleted, NULL after: unique per site among undeleted nodes.
		`CREATE TABLE nodes (id TEXT PRIMARY KEY, site_id TEXT NOT NULL REFERENCES sites(id),
			host_key TEXT, status TEXT NOT NULL, data TEXT NOT NULL, UNIQUE (site_id, host_key))`,
		`CREATE TABLE runs (id TEXT PRIMARY KEY, site_id TEXT NOT NULL REFERENCES sites(id), data TEXT NOT NULL)`,
		`CREATE INDEX runs_site ON runs (site_id)`,
		`CREATE TABLE run_events (run_id TEXT NOT NULL REFERENCES runs(id), seq INTEGER NOT NULL,
			data TEXT NOT NULL, PRIMARY KEY (run_id, seq))`,
		`CREATE TABLE leases (site_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL, data TEXT NOT NULL)`,
		`CREATE TABLE audit (seq INTEGER PRIMARY KEY, data TEXT NOT NULL)`,
		`CREATE TABLE admin_tokens (id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, data TEXT NOT NULL)`,
		`CREATE TABLE agent_tasks (id TEXT PRIMARY KEY, node_id TEXT NOT NULL REFERENCES nodes(id),
			open INTEGER NOT NULL, data TEXT NOT NULL)`,
		`CREATE INDEX agent_tasks_open ON agent_tasks (node_id, open)`,
		`CREATE TABLE agent_task_seq (node_id TEXT PRIMARY KEY, seq INTEGER NOT NULL)`,
		`CREATE TABLE enrollment_tokens (hash TEXT PRIMARY KEY, node_id TEXT NOT NULL REFERENCES nodes(id), data TEXT NOT NULL)`,
		// the node's newest token: the only one that still works
		`CREATE TABLE enrollment_newest (node_id TEXT PRIMARY KEY, hash TEXT NOT NULL)`,
	},
}, {
	Migration: lifecycle.Migration{Version: 2, Name: "power overrides, observed MAAS state per node, feed cursors"},
	stmts: []string{
		`CREATE TABLE power_overrides (id TEXT PRIMARY KEY, site_id TEXT NOT NULL REFERENCES sites(id),
			selector_type TEXT NOT NULL, selector_value TEXT NOT NULL, data TEXT NOT NULL,
			UNIQUE (site_id, selector_type, selector_value))`,
		`CREATE TABLE node_maas_state (node_id TEXT PRIMARY KEY REFERENCES nodes(id), site_id TEXT NOT NULL, data TEXT NOT NULL)`,
		`CREATE TABLE feed_cursors (site_id TEXT PRIMARY KEY, event_id INTEGER NOT NULL, data TEXT NOT NULL)`,
	},
}, {
	Migration: lifecycle.Migration{Version: 3, Name: "RoCE assignments"},
	stmts: []string{
		`CREATE TABLE roce_assignments (id TEXT PRIMARY KEY, site_id TEXT NOT NULL REFERENCES sites(id),
			hostname TEXT NOT NULL, interface TEXT NOT NULL, data TEXT NOT NULL,
			UNIQUE (site_id, hostname, interface))`,
	},
}, {
	Migration: lifecycle.Migration{Version: 4, Name: "submissions and batches, webhook inbox, outbox indexed by node and by delivery time"},
	stmts: []string{
		`CREATE TABLE batches (id TEXT PRIMARY KEY, site_id TEXT NOT NULL, data TEXT NOT NULL)`,
		// the first result of each idempotency key, with its request's hash
		`CREATE TABLE submissions (idem_key TEXT PRIMARY KEY, request_hash TEXT NOT NULL, data TEXT NOT NULL)`,
		// AUTOINCREMENT: a sequence number is never reused after a prune.
		// received_at is Unix nanoseconds.
		`CREATE TABLE webhook_inbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, site_id TEXT NOT NULL, event_id TEXT NOT NULL,
			received_at INTEGER NOT NULL, processed INTEGER NOT NULL, data TEXT NOT NULL, UNIQUE (site_id, event_id))`,
		`CREATE INDEX webhook_inbox_pending ON webhook_inbox (seq) WHERE processed = 0`,
		// next_attempt and delivered_at are Unix nanoseconds; delivered_at
		// is NULL until delivery.
		`CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, node_id TEXT NOT NULL,
			run_id TEXT NOT NULL, next_attempt INTEGER NOT NULL, delivered_at INTEGER, data TEXT NOT NULL)`,
		`CREATE INDEX outbox_pending ON outbox (node_id, seq) WHERE delivered_at IS NULL`,
		`CREATE INDEX outbox_delivered ON outbox (delivered_at, seq) WHERE delivered_at IS NOT NULL`,
	},
}, {
	Migration: lifecycle.Migration{Version: 5, Name: "nodes indexed by site and status, for list pages"},
	stmts: []string{
		`CREATE INDEX nodes_site_status ON nodes (site_id, status, id)`,
		`CREATE INDEX nodes_status ON nodes (status, id)`,
	},
}, {
	Migration: lifecycle.Migration{Version: 6, Name: "runs' kind, status, node, batch and request time as columns, indexed in list order, for list pages"},
	stmts: []string{
		`ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE runs ADD COLUMN status TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE runs ADD COLUMN node_id TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE runs ADD COLUMN batch_id TEXT NOT NULL DEFAULT ''`,
		// Unix nanoseconds: the list order is request time, then id
		`ALTER TABLE runs ADD COLUMN requested_at INTEGER NOT NULL DEFAULT 0`,
		`CREATE INDEX runs_order ON runs (requested_at, id)`,
		`CREATE INDEX runs_site_order ON runs (site_id, requested_at, id)`,
		`CREATE INDEX runs_node_order ON runs (node_id, requested_at, id)`,
		`CREATE INDEX runs_batch_order ON runs (batch_id, requested_at, id)`,
		`CREATE INDEX runs_status_order ON runs (status, requested_at, id)`,
		`CREATE INDEX runs_kind_order ON runs (kind, requested_at, id)`,
		fillRunColumns,
	},
}, {
	Migration: lifecycle.Migration{Version: 7, Name: "clean certificates: each node's chain, each run's certificate and each site's log with its signed head"},
	stmts:     certLedgerSchema,
}, {
	Migration: lifecycle.Migration{Version: 8, Name: "part histories: each serial's failures, repairs, replacements and the nodes it was in"},
	stmts:     partsSchema,
}, {
	Migration: lifecycle.Migration{Version: 9, Name: "node health: each node's verdict and its history of verdicts and reported faults"},
	stmts:     healthSchema,
}}
