// Package feed is how maas-sidecar learns about MAAS changes (DESIGN.md
// §6): signed webhooks written to a durable inbox before they are
// acknowledged, an events-cursor poller per site that always runs, and a
// full resync per site. All three become "machine X may have changed"
// hints, deduplicated and debounced per machine; a hint is never trusted
// as state: the machine is re-read from MAAS, the runs waiting on it are
// woken and the reconciler judges what was read.
package feed
