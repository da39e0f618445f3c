package secrets

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestMemoryRefusedOutsideDevMode(t *testing.T) {
	if _, err := NewMemory(false); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
		t.Fatalf("NewMemory(false) = %v, want an invalid error", err)
	}
	if _, err := NewMemory(true); err != nil {
		t.Fatalf("NewMemory(true) = %v", err)
	}
}

func TestStoreOverMemory(t *testing.T) {
	m, _ := NewMemory(true)
	s := NewStore(m)
	ctx := context.Background()
	p := PowerDefaultPath("s1")
	if _, err := s.PowerCredentials(ctx, p); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("missing secret: %v, want not_found", err)
	}
	for _, pass := range []Secret{"first", "rotated"} {
		if err := s.PutPowerCredentials(ctx, p, PowerCredentials{User: "root", Pass: pass}); err != nil {
			t.Fatal(err)
		}
		got, err := s.PowerCredentials(ctx, p)
		if err != nil || got != (PowerCredentials{User: "root", Pass: pass}) {
			t.Fatalf("read %+v, %v; want pass %s", got, err, pass.Reveal())
		}
	}
	_ = m.Write(ctx, APITokenPath("s1"), map[string]string{"wrong": "shape"})
	if _, err := s.MAASToken(ctx, APITokenPath("s1")); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("missing field: %v, want not_found", err)
	}
}

func TestPaths(t *testing.T) {
	got := []string{APITokenPath("s1"), PowerDefaultPath("s1"), PowerOverridePath("s1", "o1"), DeployPasswordPath("s1")}
	want := []string{"kv/maas-sites/s1/api-token", "kv/maas-sites/s1/power/default",
		"kv/maas-sites/s1/power/overrides/o1", "kv/maas-sites/s1/deploy-password"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "kv", "kv/", "kv/maas-sites/../x", "kv//x", "/kv/x"} {
		if _, _, err := splitPath("op", bad); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
			t.Errorf("splitPath(%q) = %v, want invalid", bad, err)
		}
	}
}

func TestSecretNeverPrints(t *testing.T) {
	c := PowerCredentials{User: "root", Pass: "hunter2-value"}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("creds", "c", c, "p", c.Pass)
	js, _ := json.Marshal(c)
	outputs := []string{fmt.Sprintf("%v %+v %#v %s", c, c, c, c.Pass), logs.String(), string(js)}
	for _, out := range outputs {
		if strings.Contains(out, "hunter2") {
			t.Errorf("secret printed: %s", out)
		}
	}
	if c.Pass.Reveal() != "hunter2-value" {
		t.Error("Reveal must return the value")
	}
}

func TestNotifyDBPasswordOverMemory(t *testing.T) {
	m, _ := NewMemory(true)
	s := NewStore(m)
	ctx := context.Background()
	if _, err := s.NotifyDBPassword(ctx, "s1"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("missing: %v, want not_found", err)
	}
	_ = m.Write(ctx, lifecycle.NotifyDBPasswordVaultPath("s1"), map[string]string{"password": ""})
	if _, err := s.NotifyDBPassword(ctx, "s1"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("empty: %v, want not_found", err)
	}
	_ = m.Write(ctx, lifecycle.NotifyDBPasswordVaultPath("s1"), map[string]string{"password": "pg-pass"})
	if got, err := s.NotifyDBPassword(ctx, "s1"); err != nil || got != "pg-pass" {
		t.Fatalf("read %q, %v", got, err)
	}
}
