package cli

import "fmt"

// runEvent is one entry of a run's journal as the CLI shows it.
type runEvent struct {
	Seq     int
	Stage   string
	Attempt int
	Status  string
	Message string
	Holder  string
	Epoch   uint64
}

// by is the daemon and lease epoch that wrote the entry, as holder@epoch;
// "-" for an entry that does not name its writer.
func (e runEvent) by() string {
	if e.Holder == "" {
		return "-"
	}
	return fmt.Sprintf("%s@%d", e.Holder, e.Epoch)
}

// eventRows is the journal table: a header row, then one row per entry.
func eventRows(evs []runEvent) [][]string {
	rows := [][]string{{"SEQ", "STAGE", "ATTEMPT", "EVENT", "BY", "MESSAGE"}}
	for _, e := range evs {
		rows = append(rows, []string{fmt.Sprint(e.Seq), e.Stage, fmt.Sprint(e.Attempt), e.Status, e.by(), e.Message})
	}
	return rows
}
