package cli

import (
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// by is the daemon and lease epoch that wrote the entry, as holder@epoch;
// "-" for an entry that does not name its writer.
func by(e lifecycle.RunEvent) string {
	if e.Holder == "" {
		return "-"
	}
	return fmt.Sprintf("%s@%d", e.Holder, e.Epoch)
}

// eventRows is the journal table: a header row, then one row per entry.
func eventRows(evs []lifecycle.RunEvent) [][]string {
	rows := [][]string{{"SEQ", "STAGE", "ATTEMPT", "EVENT", "BY", "MESSAGE"}}
	for _, e := range evs {
		rows = append(rows, []string{fmt.Sprint(e.Seq), string(e.Stage), fmt.Sprint(e.Attempt), string(e.Status), by(e), e.Message})
	}
	return rows
}
