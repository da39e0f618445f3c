package bolt

import (
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
	bbolt "go.etcd.io/bbolt"
)

// migration is one step of the schema: run changes a file at Version-1
// into one at Version, inside the transaction that records Version, and
// says what it did.
type migration struct {
	lifecycle.Migration
	run func(*bbolt.Tx) (detail string, err error)
}

// migrations are every step, in order; the last one's Version is Latest.
// Append only: a released migration never changes, and a new file starts
// at Latest without running any, so each must leave the layout a new
// file has.
var migrations = []migration{
	{lifecycle.Migration{Version: 1, Name: "index delivered outbox events by delivery time, so they can be pruned"}, indexDelivered},
	{lifecycle.Migration{Version: 2, Name: "index nodes by site, status and hostname, and runs by request time, site, node, batch and status, for list pages"}, indexLists},
	{lifecycle.Migration{Version: 3, Name: "index runs by kind, alone and with site or status, for decommission and onboarding list pages"}, indexRunKinds},
}

// pending returns the migrations a file at version still needs.
func pending(version int) []migration {
	return op.Pending(migrations, version, func(m migration) int { return m.Version })
}

// indexDelivered (version 1) creates bOutboxDone and fills it from the
// delivered events already in the outbox.
func indexDelivered(tx *bbolt.Tx) (string, error) {
	idx, err := tx.CreateBucketIfNotExists(bOutboxDone)
	if err != nil {
		return "", err
	}
	box := tx.Bucket(bOutbox)
	if box == nil {
		return "no outbox: nothing to index", nil
	}
	n := 0
	err = box.ForEach(func(k, _ []byte) error {
		var e lifecycle.OutboxEvent
		if _, err := get(box, string(k), &e); err != nil {
			return err
		}
		if e.DeliveredAt == nil {
			return nil
		}
		n++
		return idx.Put(doneKey(*e.DeliveredAt, e.Seq), []byte{})
	})
	return fmt.Sprintf("%d delivered events indexed", n), err
}
