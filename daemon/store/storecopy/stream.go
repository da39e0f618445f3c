package storecopy

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Format names the export stream in its first line.
const Format = "maas-sidecar-export"

// formatVersion is the stream layout's version.
const formatVersion = 1

// line is one line of the stream: the header (Format, Version), a record
// (Record), or the trailer (End, with the record count).
type line struct {
	Format  string            `json:"format,omitempty"`
	Version int               `json:"version,omitempty"`
	Record  *lifecycle.Record `json:"record,omitempty"`
	End     bool              `json:"end,omitempty"`
	Records int               `json:"records,omitempty"`
}

// WriteStream writes every record of src to w as gzip-compressed JSON
// lines: a header, one line per record, a trailer with the count (a
// truncated file fails ReadStream). It returns the counts by kind.
func WriteStream(ctx context.Context, src lifecycle.Exporter, w io.Writer) (Counts, error) {
	zw := gzip.NewWriter(w)
	enc := json.NewEncoder(zw)
	counts, n := Counts{}, 0
	if err := enc.Encode(line{Format: Format, Version: formatVersion}); err != nil {
		return nil, err
	}
	err := src.Export(ctx, func(r lifecycle.Record) error {
		counts[r.Kind]++
		n++
		return enc.Encode(line{Record: &r})
	})
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if err := enc.Encode(line{End: true, Records: n}); err != nil {
		return nil, err
	}
	return counts, zw.Close()
}

// ReadStream reads a stream WriteStream wrote; invalid when it is not
// one, is of a newer layout, or is cut short.
func ReadStream(r io.Reader) ([]lifecycle.Record, error) {
	const op = "storecopy.ReadStream"
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, lifecycle.Invalid(op, "file", "not a gzip-compressed export: %v", err)
	}
	dec := json.NewDecoder(bufio.NewReader(zr))
	var head line
	if err := dec.Decode(&head); err != nil || head.Format != Format {
		return nil, lifecycle.Invalid(op, "file", "not a %s stream", Format)
	}
	if head.Version > formatVersion {
		return nil, lifecycle.Invalid(op, "file", "export layout %d is newer than this binary's %d", head.Version, formatVersion)
	}
	var recs []lifecycle.Record
	for {
		var l line
		if err := dec.Decode(&l); err != nil {
			return nil, lifecycle.Invalid(op, "file", "the export is cut short after %d records: %v", len(recs), err)
		}
		switch {
		case l.Record != nil:
			recs = append(recs, *l.Record)
		case l.End && l.Records == len(recs):
			return recs, nil
		default:
			return nil, lifecycle.Invalid(op, "file", "the export ends after %d records but says %d", len(recs), l.Records)
		}
	}
}
