// Package outbox delivers the lifecycle events of the durable outbox
// (lifecycle.OutboxStore) to the GPU cloud's control plane: each event is
// POSTed as JSON to one configured URL, signed with HMAC-SHA256 like the
// MAAS webhooks the daemon receives, retried with jittered backoff until
// the receiver answers 2xx, and marked delivered in the store. A node's
// events go out one at a time in the order they were recorded; a restart
// resumes from the store, so none is lost or reordered.
package outbox
