// Package logging builds the daemon's log/slog logger: JSON lines when the
// output is not a terminal (systemd's journal, a pipe, a file), human text
// when it is. The logger is built once in main and injected everywhere.
package logging

import (
	"io"
	"log/slog"
	"os"

	"golang.org/x/term"
)

// New returns a logger writing to w at level: JSON unless w is a terminal.
func New(w io.Writer, level slog.Leveler) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if IsTerminal(w) {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// IsTerminal reports whether w is a terminal. Other character devices,
// such as /dev/null, are not.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
