package storecopy

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxReported bounds the differences a failed verification names.
const maxReported = 20

type recordID struct {
	kind lifecycle.RecordKind
	key  string
}

// Verify compares two exports record by record, by kind and key; order
// does not matter. A difference fails with conflict naming up to 20
// records: missing from the copy, changed in it, or only in it.
func Verify(want, got []lifecycle.Record) error {
	have := make(map[recordID][]byte, len(got))
	for _, r := range got {
		have[recordID{r.Kind, r.Key}] = r.Data
	}
	var diffs []string
	for _, r := range want {
		id := recordID{r.Kind, r.Key}
		data, ok := have[id]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s %s: missing from the copy", r.Kind, r.Key))
		case !bytes.Equal(data, r.Data):
			diffs = append(diffs, fmt.Sprintf("%s %s: differs: source %s, copy %s", r.Kind, r.Key, clip(r.Data), clip(data)))
		}
		delete(have, id)
	}
	for _, r := range got {
		if _, extra := have[recordID{r.Kind, r.Key}]; extra {
			diffs = append(diffs, fmt.Sprintf("%s %s: only in the copy", r.Kind, r.Key))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	n := len(diffs)
	if n > maxReported {
		diffs = append(diffs[:maxReported], fmt.Sprintf("and %d more", n-maxReported))
	}
	return lifecycle.Errorf(lifecycle.CodeConflict, "storecopy.Verify",
		"verification failed: %d records differ:\n  %s", n, strings.Join(diffs, "\n  "))
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
