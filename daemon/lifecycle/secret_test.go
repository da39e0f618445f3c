package lifecycle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestSecretsNeverPrint prints, logs and marshals every domain type that
// carries a secret, and fails if the secret value shows anywhere.
func TestSecretsNeverPrint(t *testing.T) {
	const value = "s3cr3t-Value-42"
	values := map[string]any{
		"Secret":        Secret(value),
		"MachineToken":  MachineToken{ConsumerKey: "ck", TokenKey: "tk", TokenSecret: value},
		"*MachineToken": &MachineToken{ConsumerKey: "ck", TokenKey: "tk", TokenSecret: value},
		"BMCLogin":      BMCLogin{Address: "10.0.0.5", User: "root", Pass: value},
		"BMCCredential": BMCCredential{User: "root", Pass: value},
		"BootstrapSpec": BootstrapSpec{NodeID: "n1", DeployPassword: value, EnrollmentToken: value,
			MachineToken: &MachineToken{TokenSecret: value}},
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
				fmt.Fprintf(&out, verb+"\n", v)
			}
			fmt.Fprintln(&out, v)
			slog.New(slog.NewJSONHandler(&out, nil)).Info("x", "v", v)
			slog.New(slog.NewTextHandler(&out, nil)).Info("x", "v", v)
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			out.Write(b)
			if strings.Contains(out.String(), value) || strings.Contains(out.String(), fmt.Sprintf("%x", value)) {
				t.Fatalf("the secret value shows:\n%s", out.String())
			}
			if !strings.Contains(out.String(), "[redacted]") {
				t.Fatalf("no redaction marker; the check proves nothing:\n%s", out.String())
			}
		})
	}
	if got := Secret(value).Reveal(); got != value {
		t.Errorf("Reveal() = %q, want the value", got)
	}
}

func TestSyncHealthy(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) *time.Time { x := now.Add(-d); return &x }
	tests := []struct {
		name       string
		last, next *time.Time
		want       bool
	}{
		{"never synced", nil, nil, false},
		{"fresh", ago(5 * time.Minute), ago(-10 * time.Minute), true},
		{"at 1.5 intervals", ago(15 * time.Minute), ago(5 * time.Minute), true},
		{"stale", ago(16 * time.Minute), ago(6 * time.Minute), false},
		{"no next", ago(time.Minute), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Machine{LastSync: tt.last, NextSync: tt.next}).SyncHealthy(now); got != tt.want {
				t.Errorf("SyncHealthy = %v, want %v", got, tt.want)
			}
		})
	}
}
