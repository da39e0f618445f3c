package simhost

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const cloudConfig = `#cloud-config
write_files:
  - path: /etc/gpuaas-node-agent/config.yaml
    permissions: "0600"
    content: "node_id: n1\n"
  - path: etc/agent/ca.pem
    encoding: b64
    content: ` + "Q0EgUEVN" + `
`

func mimeUserData(part string) []byte {
	return []byte("Content-Type: multipart/mixed; boundary=\"B\"\nMIME-Version: 1.0\n\n" +
		"--B\nContent-Type: text/x-shellscript\n\n#!/bin/sh\necho never\n" +
		"--B\nContent-Type: text/cloud-config\nContent-Transfer-Encoding: base64\n\n" +
		base64.StdEncoding.EncodeToString([]byte(part)) + "\n--B--\n")
}

func TestApply(t *testing.T) {
	tests := []struct {
		name     string
		userData []byte
	}{
		{"a #cloud-config document", []byte(cloudConfig)},
		{"a MIME user-data", mimeUserData(cloudConfig)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := Apply(root, tt.userData); err != nil {
				t.Fatalf("Apply() = %v", err)
			}
			got := map[string]string{}
			for _, p := range []string{"etc/gpuaas-node-agent/config.yaml", "etc/agent/ca.pem"} {
				path := filepath.Join(root, p)
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				info, _ := os.Stat(path)
				got[p] = info.Mode().Perm().String() + " " + string(b)
			}
			want := map[string]string{
				"etc/gpuaas-node-agent/config.yaml": "-rw------- node_id: n1\n",
				"etc/agent/ca.pem":                  "-rw-r--r-- CA PEM",
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("files (-want +got):\n%s", d)
			}
		})
	}
}

func TestUnits(t *testing.T) {
	ctx := context.Background()
	u := newUnits()
	_ = u.Enable(ctx, "a.timer", "b.service")
	_ = u.Restart(ctx, "a.timer")
	_ = u.Disable(ctx, "b.service")
	_ = u.Restart(ctx, "b.service")
	_ = u.Stop(ctx, "b.service")
	got := map[string][2]bool{}
	for _, n := range []string{"a.timer", "b.service"} {
		got[n] = [2]bool{u.Enabled(n), u.Active(n)}
	}
	want := map[string][2]bool{"a.timer": {true, true}, "b.service": {false, false}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("units [enabled active] (-want +got):\n%s", d)
	}
}
