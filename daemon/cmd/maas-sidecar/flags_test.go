package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/config"
)

func writeConfig(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFlagsOverrideTheFile(t *testing.T) {
	file := writeConfig(t, "admin_listen: 127.0.0.1:7000\nstate_dir: /srv/from-file\nlog_level: warn\n")
	tests := []struct {
		name string
		args []string
		want func(*config.Config)
	}{
		{"file only", []string{"--config", file},
			func(c *config.Config) {
				c.AdminListen, c.StateDir, c.LogLevel = "127.0.0.1:7000", "/srv/from-file", "warn"
			}},
		{"flags win", []string{"--config", file, "--admin-listen", "127.0.0.1:0", "--state-dir", "/srv/flag", "--log-level", "debug"},
			func(c *config.Config) { c.AdminListen, c.StateDir, c.LogLevel = "127.0.0.1:0", "/srv/flag", "debug" }},
		{"unset flags keep the file", []string{"--config", file, "--state-dir", "/srv/flag"},
			func(c *config.Config) { c.AdminListen, c.StateDir, c.LogLevel = "127.0.0.1:7000", "/srv/flag", "warn" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseServe(tt.args, &bytes.Buffer{})
			if err != nil {
				t.Fatalf("parseServe() = %v", err)
			}
			want := config.Default()
			tt.want(&want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("config (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseServeErrors(t *testing.T) {
	empty := writeConfig(t, "")
	tests := []struct {
		name  string
		args  []string
		usage bool
		msg   string
	}{
		{"unknown flag", []string{"--config", empty, "--colour"}, true, "flag provided but not defined: -colour"},
		{"stray argument", []string{"--config", empty, "now"}, true, `unexpected argument "now"`},
		{"dev-idle without dev", []string{"--config", empty, "--dev-idle"}, true, "--dev-idle needs --dev"},
		{"dev-no-postgres without dev", []string{"--config", empty, "--dev-no-postgres"}, true, "--dev-no-postgres needs --dev"},
		{"bad listen flag", []string{"--config", empty, "--admin-listen", "x"}, false, `admin_listen: "x" is not host:port`},
		{"missing explicit file", []string{"--config", "/nonexistent/maas-sidecar.yaml"}, false, "/nonexistent/maas-sidecar.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseServe(tt.args, &bytes.Buffer{})
			var u usageError
			if err == nil || errors.As(err, &u) != tt.usage || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("parseServe() = %v, want usage error %v containing %q", err, tt.usage, tt.msg)
			}
		})
	}
}

func TestServeHelp(t *testing.T) {
	var out bytes.Buffer
	_, err := parseServe([]string{"-h"}, &out)
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "-admin-listen") {
		t.Fatalf("parseServe(-h) = %v, output %q; want ErrHelp and the flag list", err, out.String())
	}
}

// A build without dev mode refuses --dev as a wrong command line that
// names the build tag; one with it, and a command line without --dev,
// pass.
func TestDevFlag(t *testing.T) {
	var uerr usageError
	if err := devFlag(true, false); !errors.As(err, &uerr) || !strings.Contains(err.Error(), "`-tags dev`") {
		t.Errorf("devFlag(true, false) = %v; want a usage error naming -tags dev", err)
	}
	for _, c := range [][2]bool{{true, true}, {false, false}, {false, true}} {
		if err := devFlag(c[0], c[1]); err != nil {
			t.Errorf("devFlag(%v, %v) = %v; want nil", c[0], c[1], err)
		}
	}
}
