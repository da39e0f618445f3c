package maassim

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

const upsertNode = `INSERT INTO maasserver_node (system_id, hostname, description, architecture,
  osystem, distro_series, error_description, power_state, status, previous_status, cpu_count,
  memory, enable_hw_sync, sync_interval, last_sync, node_type)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0)
ON CONFLICT (system_id) DO UPDATE SET updated = now(), hostname = EXCLUDED.hostname,
  description = EXCLUDED.description, architecture = EXCLUDED.architecture,
  osystem = EXCLUDED.osystem, distro_series = EXCLUDED.distro_series,
  error_description = EXCLUDED.error_description, power_state = EXCLUDED.power_state,
  status = EXCLUDED.status, previous_status = EXCLUDED.previous_status,
  cpu_count = EXCLUDED.cpu_count, memory = EXCLUDED.memory,
  enable_hw_sync = EXCLUDED.enable_hw_sync, sync_interval = EXCLUDED.sync_interval,
  last_sync = EXCLUDED.last_sync`

// insertEvent writes one event with its type (named by the simulator's
// event type, the text MAAS shows as an event's "type").
const insertEvent = `WITH t AS (
  INSERT INTO maasserver_eventtype (name, description, level) VALUES ($2, $2, $3)
  ON CONFLICT (name) DO UPDATE SET updated = now() RETURNING id)
INSERT INTO maasserver_event (id, created, updated, type_id, node_id, node_system_id,
  node_hostname, username, description)
SELECT $1, $4, $4, t.id, (SELECT id FROM maasserver_node WHERE system_id = $5), $5, $6, $7, $8 FROM t
ON CONFLICT (id) DO NOTHING`

func queueNode(b *pgx.Batch, r *nodeRow) {
	b.Queue(upsertNode, r.systemID, r.hostname, r.description, r.arch, r.osystem, r.distro, r.errDesc,
		r.powerState, r.status, r.prevStatus, r.cpus, r.memory, r.enableHWSync, r.syncInterval, r.lastSync)
}

// flush writes the queued changes and new events in one transaction,
// with the triggers on: PostgreSQL notifies at commit.
func (m *Mirror) flush(ctx context.Context, conn *pgx.Conn) error {
	changes, events := m.pending()
	if len(changes) == 0 && len(events) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, c := range changes {
		if c.row == nil {
			b.Queue("DELETE FROM maasserver_node WHERE system_id = $1", c.systemID)
		} else {
			queueNode(b, c.row)
		}
		if c.row != nil && c.links {
			// The simulator keeps no interface tables: this stands in
			// for MAAS's interface and IP address triggers, which notify
			// machine_update for the machine whose links changed.
			b.Queue("SELECT pg_notify('machine_update', $1)", c.systemID)
		}
	}
	for _, e := range events {
		b.Queue(insertEvent, e.id, e.typ, e.level, e.created, e.sid, e.hostname, e.username, e.description)
	}
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
	if err != nil {
		return fmt.Errorf("maassim: postgres mirror: write: %w", err)
	}
	if len(events) > 0 {
		m.lastEvent = events[len(events)-1].id
	}
	return nil
}

// resync makes maasserver_node hold exactly the simulator's machines, and
// drops events newer than its newest, with the node triggers disabled for
// the transaction: nothing is notified.
func (m *Mirror) resync(ctx context.Context, conn *pgx.Conn) error {
	rows, lastEvent := m.snapshot()
	sids := make([]string, len(rows))
	b := &pgx.Batch{}
	b.Queue("ALTER TABLE maasserver_node DISABLE TRIGGER USER")
	for i := range rows {
		sids[i] = rows[i].systemID
	}
	b.Queue("DELETE FROM maasserver_node WHERE node_type = 0 AND NOT (system_id = ANY($1))", sids)
	for i := range rows {
		queueNode(b, &rows[i])
	}
	b.Queue("DELETE FROM maasserver_event WHERE id > $1", lastEvent)
	b.Queue("ALTER TABLE maasserver_node ENABLE TRIGGER USER")
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
	if err != nil {
		return fmt.Errorf("maassim: postgres mirror: resync: %w", err)
	}
	m.lastEvent = lastEvent
	return nil
}
