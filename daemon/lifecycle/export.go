package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
)

// RecordKind names one kind of stored record in an export.
type RecordKind string

// Record kinds, in RecordKinds order. Site leases are not among them: a
// lease belongs to the daemons of one store, and a copied one would keep
// the daemons of the new store from driving the site until it expired;
// they claim fresh leases instead.
const (
	KindSite             RecordKind = "site"
	KindSitePolicy       RecordKind = "site_policy"
	KindNode             RecordKind = "node"
	KindNodeMaasState    RecordKind = "node_maas_state"
	KindRun              RecordKind = "run"
	KindRunEvent         RecordKind = "run_event"
	KindBatch            RecordKind = "batch"
	KindIdempotency      RecordKind = "idempotency"
	KindAudit            RecordKind = "audit"
	KindAdminToken       RecordKind = "admin_token"
	KindAgentTask        RecordKind = "agent_task"
	KindTaskSequence     RecordKind = "agent_task_sequence"
	KindEnrollmentToken  RecordKind = "enrollment_token"
	KindEnrollmentNewest RecordKind = "enrollment_newest"
	KindPowerOverride    RecordKind = "power_override"
	KindRoCEAssignment   RecordKind = "roce_assignment"
	KindWebhook          RecordKind = "webhook"
	KindFeedCursor       RecordKind = "feed_cursor"
	KindOutboxEvent      RecordKind = "outbox_event"
	// KindCertificate is a clean certificate of the certificate ledger
	// (the evidence package's cert.Record: envelope, log entry, signed
	// head), keyed CertificateKey and exported site by site in log order,
	// so that an import rebuilds each node's chain and each site's log.
	KindCertificate RecordKind = "certificate"
	// KindPartEvent is one entry of a part's history, keyed serial/id.
	KindPartEvent RecordKind = "part_event"
	KindSequence  RecordKind = "sequence"
)

// RecordKinds lists every kind in the order an export emits them and an
// import needs them: a record comes after the records it refers to.
var RecordKinds = []RecordKind{KindSite, KindSitePolicy, KindNode, KindNodeMaasState, KindRun, KindRunEvent,
	KindBatch, KindIdempotency, KindAudit, KindAdminToken, KindAgentTask, KindTaskSequence, KindEnrollmentToken,
	KindEnrollmentNewest, KindPowerOverride, KindRoCEAssignment, KindWebhook, KindFeedCursor, KindOutboxEvent,
	KindCertificate, KindPartEvent, KindSequence}

// Sequence names, the counters a store keeps beside its records so that
// a sequence number is never reused after a prune.
const (
	SequenceWebhooks = "webhook_inbox"
	SequenceOutbox   = "outbox"
)

// Record is one stored record as an export carries it: its kind, its
// identity within the kind, and the record itself as JSON (the lifecycle
// type of the kind, with every id, timestamp and sequence number).
type Record struct {
	Kind RecordKind      `json:"kind"`
	Key  string          `json:"key"`
	Data json.RawMessage `json:"data"`
}

// IdempotencyRecord is the first result of a submission's idempotency
// key, with the hash of its request.
type IdempotencyRecord struct {
	Key         string           `json:"key"`
	RequestHash string           `json:"request_hash"`
	Result      SubmissionResult `json:"result"`
}

// TaskSequence is the last agent task dispatch sequence of a node.
type TaskSequence struct {
	NodeID string `json:"node_id"`
	Seq    uint64 `json:"seq"`
}

// EnrollmentNewest names a node's newest enrollment token, the only one
// that can still work.
type EnrollmentNewest struct {
	NodeID string `json:"node_id"`
	Hash   string `json:"hash"`
}

// Sequence is a store counter (SequenceWebhooks, SequenceOutbox): the
// last number it handed out, 0 when none.
type Sequence struct {
	Name string `json:"name"`
	Last uint64 `json:"last"`
}

// Exporter reads every record of a store (see RecordKinds).
type Exporter interface {
	// Export calls fn for every record, from one consistent read, kind by
	// kind in RecordKinds order. An error from
	// fn stops the export and is returned, wrapped. Errors: unavailable,
	// internal.
	Export(ctx context.Context, fn func(Record) error) error
}

// Importer writes exported records into an empty store.
type Importer interface {
	// Import writes recs verbatim (ids, timestamps and sequence numbers
	// kept, indexes rebuilt) in one transaction: all or nothing. recs are
	// in RecordKinds order. Errors: conflict when the store holds any
	// record, invalid for a record of an unknown kind or that does not
	// decode, internal.
	Import(ctx context.Context, recs []Record) error
}

// NewRecord wraps v, a record of one of the exported types, with its kind
// and key.
func NewRecord(v any) (Record, error) {
	kind, key := recordKey(v)
	if kind == "" {
		return Record{}, Errorf(CodeInternal, "lifecycle.NewRecord", "%T is not an exported record type", v)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return Record{}, Wrap(CodeInternal, "lifecycle.NewRecord", err)
	}
	return Record{Kind: kind, Key: key, Data: raw}, nil
}

// DecodeRecord decodes r's data into T; invalid when it does not decode.
func DecodeRecord[T any](r Record) (T, error) {
	var v T
	if err := json.Unmarshal(r.Data, &v); err != nil {
		return v, Invalid("lifecycle.DecodeRecord", "data", "%s record %q: %v", r.Kind, r.Key, err)
	}
	return v, nil
}

// CertificateKey is the key of a KindCertificate record: the site and
// the certificate's index in the site's log.
func CertificateKey(site string, index uint64) string { return site + "/" + seqKey(index) }

// seqKey formats a sequence number so that keys sort as numbers.
func seqKey(n uint64) string { return fmt.Sprintf("%020d", n) }
