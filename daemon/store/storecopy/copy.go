package storecopy

import (
	"context"
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Target is a store a copy goes into: imported, then exported again for
// the verification.
type Target interface {
	lifecycle.Exporter
	lifecycle.Importer
}

// Counts is the number of records per kind.
type Counts map[lifecycle.RecordKind]int

// CountKinds counts recs by kind.
func CountKinds(recs []lifecycle.Record) Counts {
	c := Counts{}
	for _, r := range recs {
		c[r.Kind]++
	}
	return c
}

// Snapshot reads every record of src, from one consistent read.
func Snapshot(ctx context.Context, src lifecycle.Exporter) ([]lifecycle.Record, error) {
	var out []lifecycle.Record
	err := src.Export(ctx, func(r lifecycle.Record) error { out = append(out, r); return nil })
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return out, nil
}

// Copy imports every record of src into dst, which must be empty, and
// verifies the copy (Verify). It returns what it copied, by kind.
func Copy(ctx context.Context, src lifecycle.Exporter, dst Target) (Counts, error) {
	recs, err := Snapshot(ctx, src)
	if err != nil {
		return nil, err
	}
	return Restore(ctx, recs, dst)
}

// Restore imports recs into dst, which must be empty, and verifies it.
func Restore(ctx context.Context, recs []lifecycle.Record, dst Target) (Counts, error) {
	if err := dst.Import(ctx, recs); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	got, err := Snapshot(ctx, dst)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if err := Verify(recs, got); err != nil {
		return nil, err
	}
	return CountKinds(recs), nil
}
