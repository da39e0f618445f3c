package hwsync_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/systemd/fakesystemd"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hwsync"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// wantCreds is what MAAS's vendor-data writes (yaml.safe_dump of the
// reporting map: block style, two-space indent, keys sorted).
const wantCreds = `reporting:
  maas:
    consumer_key: Cq7Xyz
    endpoint: http://10.0.0.2:5248/MAAS/metadata/status/abc123
    token_key: Tk9Abc
    token_secret: S3cr3tValue
`

func payload(t *testing.T) []byte {
	b, err := json.Marshal(hwsync.Payload{Endpoint: "http://10.0.0.2:5248/MAAS/metadata/status/abc123",
		MAASCredentials: wire.MAASCredentials{ConsumerKey: "Cq7Xyz", TokenKey: "Tk9Abc", TokenSecret: "S3cr3tValue"}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func env(root string, sd task.Systemd) task.Env {
	return task.Env{Root: hostroot.Root(root), Systemd: sd, Clock: clockwork.NewFakeClockAt(time.Unix(0, 0))}
}

func TestReseedWritesCredsAndRestartsUnits(t *testing.T) {
	root := t.TempDir()
	sd := fakesystemd.New()
	h, ok := task.Default.Lookup(hwsync.Type)
	if !ok {
		t.Fatal("node.hw_sync_reseed is not registered")
	}
	for run := 1; run <= 2; run++ { // idempotent: a second run changes nothing
		if _, err := h.Run(context.Background(), env(root, sd), payload(t)); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		path := filepath.Join(root, "etc/maas/maas-machine-creds.yml")
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantCreds, string(got)); diff != "" {
			t.Errorf("run %d: creds file (-want +got):\n%s", run, diff)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("run %d: creds file mode %v, want 0600", run, fi.Mode().Perm())
		}
	}
	want := []string{"enable maas_hardware_sync.timer", "restart maas_hardware_sync.timer", "restart maas_hardware_sync.service"}
	if diff := cmp.Diff(append(want, want...), sd.Calls()); diff != "" {
		t.Errorf("systemd calls (-want +got):\n%s", diff)
	}
	if !sd.Enabled(hwsync.TimerUnit) || !sd.Active(hwsync.TimerUnit) || !sd.Active(hwsync.ServiceUnit) {
		t.Error("timer not enabled and running, or service not run")
	}
}

func TestReseedRejectsBadPayloadAndReportsSystemdFailure(t *testing.T) {
	tests := []struct {
		name    string
		payload []byte
		fail    map[string]error
	}{
		{"not json", []byte("token_secret=x"), nil},
		{"missing secret", []byte(`{"endpoint":"http://x","consumer_key":"c","token_key":"k"}`), nil},
		{"restart fails", nil, map[string]error{"restart maas_hardware_sync.timer": errors.New("unit failed")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sd := fakesystemd.New()
			sd.Fail = tc.fail
			p := tc.payload
			if p == nil {
				p = payload(t)
			}
			_, err := hwsync.Handler{}.Run(context.Background(), env(t.TempDir(), sd), p)
			if err == nil {
				t.Fatal("Run() succeeded")
			}
			if strings.Contains(err.Error(), "S3cr3tValue") || strings.Contains(err.Error(), "token_secret=x") {
				t.Errorf("error leaks the secret: %v", err)
			}
		})
	}
}
