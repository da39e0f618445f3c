package logging

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

func TestNonTerminalGetsJSON(t *testing.T) {
	var buf bytes.Buffer
	New(&buf, slog.LevelInfo).Info("hello", "component", "test")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("log line %q is not JSON: %v", buf.String(), err)
	}
	if line["msg"] != "hello" || line["component"] != "test" {
		t.Errorf("log line = %v, want msg=hello component=test", line)
	}
}

func TestLevelFilters(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, slog.LevelWarn)
	l.Info("quiet")
	if buf.Len() != 0 {
		t.Errorf("info logged at warn level: %q", buf.String())
	}
	l.Warn("loud")
	if buf.Len() == 0 {
		t.Error("warn not logged at warn level")
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type tc struct {
		name string
		w    io.Writer
		want bool
	}
	tests := []tc{
		{"buffer", &bytes.Buffer{}, false},
		{"regular file", f, false},
	}
	// /dev/null is a character device but not a terminal: a daemon whose
	// output is discarded must not switch to human text.
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer null.Close()
		tests = append(tests, tc{"/dev/null", null, false})
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		tests = append(tests, tc{"controlling terminal", tty, true})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsTerminal(tt.w); got != tt.want {
				t.Errorf("IsTerminal(%s) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}
