package gpu

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// dcgmDoc is dcgmi diag -j output across releases: the root key is
// "DCGM GPU Diagnostic" in 3.x and "DCGM Diagnostic" in 4.x.
type dcgmDoc map[string]*struct {
	Categories []struct {
		Category string `json:"category"`
		Tests    []struct {
			Name    string `json:"name"`
			Results []struct {
				EntityGroup string          `json:"entity_group"`
				EntityID    json.RawMessage `json:"entity_id"`
				GPUID       json.RawMessage `json:"gpu_id"`  // 3.3
				GPUIDs      json.RawMessage `json:"gpu_ids"` // some 3.x: "0,1"
				Status      string          `json:"status"`
				Warnings    json.RawMessage `json:"warnings"`
			} `json:"results"`
			Summary struct {
				Status string `json:"status"`
			} `json:"test_summary"`
		} `json:"tests"`
	} `json:"test_categories"`
}

// ParseDCGMDiag reads dcgmi diag -j output (text before the document is
// skipped): each test with its result per GPU.
func ParseDCGMDiag(out []byte) ([]wire.DiagTest, error) {
	i := bytes.IndexByte(out, '{')
	if i < 0 {
		return nil, errors.New("dcgmi diag: no JSON document in the output")
	}
	var doc dcgmDoc
	if err := json.NewDecoder(bytes.NewReader(out[i:])).Decode(&doc); err != nil {
		return nil, fmt.Errorf("dcgmi diag: %w", err)
	}
	root := doc["DCGM Diagnostic"]
	if root == nil {
		root = doc["DCGM GPU Diagnostic"]
	}
	if root == nil {
		return nil, errors.New(`dcgmi diag: neither "DCGM Diagnostic" nor "DCGM GPU Diagnostic" in the document`)
	}
	var tests []wire.DiagTest
	for _, c := range root.Categories {
		for _, t := range c.Tests {
			dt := wire.DiagTest{Category: c.Category, Name: t.Name, Status: t.Summary.Status}
			for _, r := range t.Results {
				if r.EntityGroup != "" && !strings.EqualFold(r.EntityGroup, "GPU") {
					continue
				}
				for _, g := range gpuIDs(r.EntityID, r.GPUID, r.GPUIDs) {
					dt.Results = append(dt.Results, wire.DiagResult{GPU: g, Status: r.Status, Warnings: warnings(r.Warnings)})
				}
			}
			tests = append(tests, dt)
		}
	}
	return tests, nil
}

// gpuIDs reads the first of entity_id, gpu_id and gpu_ids that is set: a
// number, a numeric string or a comma list; none set is GPU -1.
func gpuIDs(fields ...json.RawMessage) []int {
	for _, f := range fields {
		if len(f) == 0 || string(f) == "null" {
			continue
		}
		var s string
		if json.Unmarshal(f, &s) != nil {
			s = string(f)
		}
		var ids []int
		for _, p := range strings.Split(s, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
				ids = append(ids, n)
			}
		}
		if len(ids) > 0 {
			return ids
		}
	}
	return []int{-1}
}

// warnings reads a warning list: objects ({"warning": ..., "error_id":
// ...}, 3.x and 4.x), strings, or one string.
func warnings(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return []string{string(raw)}
	}
	var out []string
	for _, w := range list {
		var o struct {
			Warning  string `json:"warning"`
			ErrorID  *int   `json:"error_id"`
			Severity *int   `json:"error_severity"`
		}
		switch {
		case json.Unmarshal(w, &one) == nil:
			out = append(out, one)
		case json.Unmarshal(w, &o) == nil && o.ErrorID != nil:
			out = append(out, fmt.Sprintf("%s (error %d)", o.Warning, *o.ErrorID))
		default:
			out = append(out, o.Warning)
		}
	}
	return out
}
