// Package feed is how maas-sidecar learns about MAAS changes (DESIGN.md
// §6): signed webhooks written to a durable inbox before they are
// acknowledged, the notifications of a site's region database (LISTEN,
// for sites with notify set, through a Listener), an events-cursor poller
// per site that always runs, and a full resync per site. All of them
// become "machine X may have changed" hints, deduplicated and debounced
// per machine; a hint is never trusted as state: the machine is re-read
// from MAAS, the runs waiting on it are woken and the reconciler judges
// what was read. Notifications sent while a listener is disconnected are
// lost, so every connect catches up through the events cursor.
package feed
