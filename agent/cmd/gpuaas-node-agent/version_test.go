package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"testing"

	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
)

// TestVersionFlag prints the stamped version and reads no config (the
// default config path does not exist here).
func TestVersionFlag(t *testing.T) {
	old := buildinfo.Version
	t.Cleanup(func() { buildinfo.Version = old })
	buildinfo.Version = "1.2.3-test"
	var out bytes.Buffer
	if err := run([]string{"--version", "--config", "/nonexistent/config.yaml"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "1.2.3-test\n" {
		t.Errorf("--version printed %q, want %q", got, "1.2.3-test\n")
	}
}

// TestCommandLineErrors: -h is not a failure (the man page is made from
// it), a wrong flag is a usage error (exit 2), a missing config a failure.
func TestCommandLineErrors(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		help  bool
		usage bool
	}{
		{args: []string{"-h"}, help: true},
		{args: []string{"--bogus"}, usage: true},
		{args: []string{"--config", "/nonexistent/config.yaml"}},
	} {
		t.Run(tt.args[0], func(t *testing.T) {
			err := run(tt.args, io.Discard)
			if err == nil {
				t.Fatal("no error")
			}
			if got := errors.Is(err, flag.ErrHelp); got != tt.help {
				t.Errorf("help = %v, want %v (%v)", got, tt.help, err)
			}
			if got := errors.As(err, new(usageError)); got != tt.usage {
				t.Errorf("usage error = %v, want %v (%v)", got, tt.usage, err)
			}
		})
	}
}
