// Package pgnotify listens to a MAAS region database's PostgreSQL
// notifications: MAAS's own triggers send pg_notify('machine_create' |
// 'machine_update' | 'machine_delete', system_id) when a machine row
// changes. A notification is a hint, never state. The listener reconnects
// with jittered backoff; notifications sent while it is disconnected are
// lost, so its caller catches up after every connect.
package pgnotify
