package bolt

import (
	"context"
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

var _ lifecycle.Exporter = (*Store)(nil)

// Export implements lifecycle.Exporter, from one read transaction.
func (s *Store) Export(ctx context.Context, fn func(lifecycle.Record) error) error {
	return s.view(ctx, "store.Export", func(tx *bbolt.Tx) error {
		for _, k := range lifecycle.RecordKinds {
			if err := exportKind(tx, k, fn); err != nil {
				return err
			}
		}
		return nil
	})
}

// recordBuckets are the kinds stored as one JSON record per key of one
// bucket, with the bucket and a decoder to the kind's type.
var recordBuckets = map[lifecycle.RecordKind]struct {
	bucket []byte
	decode func([]byte) (any, error)
}{
	lifecycle.KindSite:            {bSites, as[lifecycle.Site]},
	lifecycle.KindSitePolicy:      {bPolicies, as[lifecycle.SitePolicy]},
	lifecycle.KindNode:            {bNodes, as[lifecycle.Node]},
	lifecycle.KindNodeMaasState:   {bMaasState, as[lifecycle.NodeMaasState]},
	lifecycle.KindRun:             {bRuns, as[lifecycle.Run]},
	lifecycle.KindBatch:           {bBatches, as[lifecycle.Batch]},
	lifecycle.KindAudit:           {bAudit, as[lifecycle.AuditEntry]},
	lifecycle.KindAdminToken:      {bTokens, as[lifecycle.AdminToken]},
	lifecycle.KindAgentTask:       {bTasks, as[lifecycle.AgentTask]},
	lifecycle.KindEnrollmentToken: {bEnroll, as[lifecycle.EnrollmentToken]},
	lifecycle.KindPowerOverride:   {bOverrides, as[lifecycle.PowerOverride]},
	lifecycle.KindRoCEAssignment:  {bRoCE, as[lifecycle.RoCEAssignment]},
	lifecycle.KindWebhook:         {bInbox, as[lifecycle.WebhookEvent]},
	lifecycle.KindFeedCursor:      {bCursors, as[lifecycle.FeedCursor]},
	lifecycle.KindOutboxEvent:     {bOutbox, as[lifecycle.OutboxEvent]},
}

func as[T any](raw []byte) (any, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

func exportKind(tx *bbolt.Tx, kind lifecycle.RecordKind, fn func(lifecycle.Record) error) error {
	if rb, ok := recordBuckets[kind]; ok {
		return tx.Bucket(rb.bucket).ForEach(func(_, raw []byte) error {
			v, err := rb.decode(raw)
			if err != nil {
				return err
			}
			return emit(v, fn)
		})
	}
	switch kind {
	case lifecycle.KindRunEvent:
		return exportEvents(tx, fn)
	case lifecycle.KindIdempotency:
		return tx.Bucket(bIdem).ForEach(func(k, raw []byte) error {
			var rec idemRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				return err
			}
			return emit(lifecycle.IdempotencyRecord{Key: string(k), RequestHash: rec.Hash, Result: rec.Result}, fn)
		})
	case lifecycle.KindTaskSequence:
		return tx.Bucket(bTaskSeq).ForEach(func(k, raw []byte) error {
			var n uint64
			if err := json.Unmarshal(raw, &n); err != nil {
				return err
			}
			return emit(lifecycle.TaskSequence{NodeID: string(k), Seq: n}, fn)
		})
	case lifecycle.KindEnrollmentNewest:
		return tx.Bucket(bEnrollNode).ForEach(func(k, v []byte) error {
			return emit(lifecycle.EnrollmentNewest{NodeID: string(k), Hash: string(v)}, fn)
		})
	case lifecycle.KindCertificate:
		return exportCertificates(tx, fn)
	case lifecycle.KindPartEvent:
		return exportParts(tx, fn)
	case lifecycle.KindSequence:
		for _, sq := range []lifecycle.Sequence{
			{Name: lifecycle.SequenceWebhooks, Last: tx.Bucket(bInbox).Sequence()},
			{Name: lifecycle.SequenceOutbox, Last: tx.Bucket(bOutbox).Sequence()},
		} {
			if err := emit(sq, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// exportEvents walks every run's journal, run by run, in sequence order.
func exportEvents(tx *bbolt.Tx, fn func(lifecycle.Record) error) error {
	events := tx.Bucket(bEvents)
	return events.ForEachBucket(func(run []byte) error {
		return events.Bucket(run).ForEach(func(_, raw []byte) error {
			var e lifecycle.RunEvent
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			return emit(e, fn)
		})
	})
}

func emit(v any, fn func(lifecycle.Record) error) error {
	r, err := lifecycle.NewRecord(v)
	if err != nil {
		return err
	}
	return fn(r)
}
