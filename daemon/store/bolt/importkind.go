package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
	bbolt "go.etcd.io/bbolt"
)

// importRecord writes one record and its index entries.
func importRecord(tx *bbolt.Tx, r lifecycle.Record) error {
	switch r.Kind {
	case lifecycle.KindSite:
		return importAs(r, func(v lifecycle.Site) error {
			return putIndexed(tx, bSites, v.ID, v, bSiteNames, []byte(v.Name))
		})
	case lifecycle.KindSitePolicy:
		return importAs(r, func(v lifecycle.SitePolicy) error { return put(tx.Bucket(bPolicies), []byte(v.SiteID), v) })
	case lifecycle.KindNode:
		return importAs(r, func(v lifecycle.Node) error {
			if v.Status == lifecycle.NodeDeleted {
				return putNode(tx, v)
			}
			if err := tx.Bucket(bNodeHosts).Put(hostKey(v.SiteID, v.Hostname), []byte(v.ID)); err != nil {
				return err
			}
			return putNode(tx, v)
		})
	case lifecycle.KindNodeMaasState:
		return importAs(r, func(v lifecycle.NodeMaasState) error { return put(tx.Bucket(bMaasState), []byte(v.NodeID), v) })
	case lifecycle.KindRun:
		return importAs(r, func(v lifecycle.Run) error {
			if _, err := tx.Bucket(bEvents).CreateBucketIfNotExists([]byte(v.ID)); err != nil {
				return err
			}
			return putRun(tx, v)
		})
	case lifecycle.KindRunEvent:
		return importAs(r, func(v lifecycle.RunEvent) error {
			b, err := tx.Bucket(bEvents).CreateBucketIfNotExists([]byte(v.RunID))
			if err != nil {
				return err
			}
			return put(b, u64(v.Seq), v)
		})
	case lifecycle.KindBatch:
		return importAs(r, func(v lifecycle.Batch) error { return put(tx.Bucket(bBatches), []byte(v.ID), v) })
	case lifecycle.KindIdempotency:
		return importAs(r, func(v lifecycle.IdempotencyRecord) error {
			return put(tx.Bucket(bIdem), []byte(v.Key), idemRecord{Hash: v.RequestHash, Result: v.Result})
		})
	case lifecycle.KindAudit:
		return importAs(r, func(v lifecycle.AuditEntry) error { return put(tx.Bucket(bAudit), u64(v.Seq), v) })
	case lifecycle.KindAdminToken:
		return importAs(r, func(v lifecycle.AdminToken) error {
			return putIndexed(tx, bTokens, v.ID, v, bTokenHash, []byte(v.Hash))
		})
	}
	return importMore(tx, r)
}

func importMore(tx *bbolt.Tx, r lifecycle.Record) error {
	switch r.Kind {
	case lifecycle.KindAgentTask:
		return importAs(r, func(v lifecycle.AgentTask) error {
			if v.State.Terminal() {
				return saveDone(tx, v)
			}
			return saveOpen(tx, v)
		})
	case lifecycle.KindTaskSequence:
		return importAs(r, func(v lifecycle.TaskSequence) error { return put(tx.Bucket(bTaskSeq), []byte(v.NodeID), v.Seq) })
	case lifecycle.KindEnrollmentToken:
		return importAs(r, func(v lifecycle.EnrollmentToken) error { return put(tx.Bucket(bEnroll), []byte(v.Hash), v) })
	case lifecycle.KindEnrollmentNewest:
		return importAs(r, func(v lifecycle.EnrollmentNewest) error {
			return tx.Bucket(bEnrollNode).Put([]byte(v.NodeID), []byte(v.Hash))
		})
	case lifecycle.KindPowerOverride:
		return importAs(r, func(v lifecycle.PowerOverride) error {
			return putIndexed(tx, bOverrides, v.ID, v, bOvrKeys, key(v.SiteID, string(v.SelectorType), v.SelectorValue))
		})
	case lifecycle.KindRoCEAssignment:
		return importAs(r, func(v lifecycle.RoCEAssignment) error {
			return putIndexed(tx, bRoCE, v.ID, v, bRoCEKeys, roceKey(v))
		})
	case lifecycle.KindWebhook:
		return importAs(r, func(v lifecycle.WebhookEvent) error { return importWebhook(tx, v) })
	case lifecycle.KindFeedCursor:
		return importAs(r, func(v lifecycle.FeedCursor) error { return put(tx.Bucket(bCursors), []byte(v.SiteID), v) })
	case lifecycle.KindOutboxEvent:
		return importAs(r, func(v lifecycle.OutboxEvent) error { return importOutbox(tx, v) })
	case lifecycle.KindCertificate:
		return certledger.Import(certRecords{tx}, r)
	case lifecycle.KindPartEvent:
		return importAs(r, func(v lifecycle.PartEvent) error { return txn{tx}.SavePartEvent(v) })
	case lifecycle.KindSequence:
		return importAs(r, func(v lifecycle.Sequence) error { return importSequence(tx, v) })
	}
	return lifecycle.Invalid("store.Import", "kind", "record %q has an unknown kind %q", r.Key, r.Kind)
}

func importAs[T any](r lifecycle.Record, fn func(T) error) error {
	v, err := lifecycle.DecodeRecord[T](r)
	if err != nil {
		return err
	}
	return fn(v)
}

// putIndexed stores v under id in bucket and id under ikey in index.
func putIndexed(tx *bbolt.Tx, bucket []byte, id string, v any, index, ikey []byte) error {
	if err := tx.Bucket(index).Put(ikey, []byte(id)); err != nil {
		return err
	}
	return put(tx.Bucket(bucket), []byte(id), v)
}

func importWebhook(tx *bbolt.Tx, e lifecycle.WebhookEvent) error {
	k := u64(e.Seq)
	if err := tx.Bucket(bInboxIDs).Put(inboxKey(e.SiteID, e.ID), k); err != nil {
		return err
	}
	if e.ProcessedAt == nil {
		if err := tx.Bucket(bInboxOpen).Put(k, nil); err != nil {
			return err
		}
	}
	return put(tx.Bucket(bInbox), k, e)
}

func importOutbox(tx *bbolt.Tx, e lifecycle.OutboxEvent) error {
	k := u64(e.Seq)
	if err := tx.Bucket(bOutboxIDs).Put([]byte(e.ID), k); err != nil {
		return err
	}
	var err error
	if e.DeliveredAt == nil {
		err = tx.Bucket(bOutboxOpen).Put(k, []byte(e.NodeID))
	} else {
		err = tx.Bucket(bOutboxDone).Put(doneKey(*e.DeliveredAt, e.Seq), []byte{})
	}
	if err != nil {
		return err
	}
	return put(tx.Bucket(bOutbox), k, e)
}

func importSequence(tx *bbolt.Tx, sq lifecycle.Sequence) error {
	switch sq.Name {
	case lifecycle.SequenceWebhooks:
		return tx.Bucket(bInbox).SetSequence(sq.Last)
	case lifecycle.SequenceOutbox:
		return tx.Bucket(bOutbox).SetSequence(sq.Last)
	}
	return lifecycle.Invalid("store.Import", "sequence", "unknown sequence %q", sq.Name)
}
