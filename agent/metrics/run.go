package metrics

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
)

// Writer rewrites the metrics file after each change and every Interval
// until its context ends.
type Writer struct {
	Metrics  *Metrics
	Dir      string // the textfile directory, resolved under the host root
	Interval time.Duration
	Clock    clockwork.Clock
	Logger   *slog.Logger
	failing  string // the write error last logged, "" while writes succeed
}

// Run writes now, then after every change and every Interval, and once
// more when ctx ends, so the file holds the last counts. A failed write
// is logged once until it succeeds again; Run always returns nil.
func (w *Writer) Run(ctx context.Context) error {
	for {
		w.write()
		select {
		case <-ctx.Done():
			w.write()
			return nil
		case <-w.Metrics.Changed():
		case <-w.Clock.After(w.Interval):
		}
	}
}

func (w *Writer) write() {
	err := w.Metrics.WriteFile(w.Dir, w.Clock.Now())
	switch {
	case err == nil && w.failing != "":
		w.failing = ""
		w.Logger.Info("agent metrics written again", "dir", w.Dir)
	case err != nil && err.Error() != w.failing:
		w.failing = err.Error()
		w.Logger.Warn("agent metrics not written; check metrics.textfile_dir (node_exporter's textfile collector directory)",
			"err", err, "dir", w.Dir)
	}
}
