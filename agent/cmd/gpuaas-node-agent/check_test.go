package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func TestCheckPrintsTheValidationEvidence(t *testing.T) {
	root := t.TempDir()
	for p, body := range map[string]string{"etc/passwd": "root:x:0:0::/root:/bin/bash\n", "proc/self/mountinfo": "22 1 8:2 / / rw - ext4 /dev/sda2 rw\n",
		"proc/1/status": "Name:\tsystemd\nUid:\t0\t0\t0\t0\n"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	err := run([]string{"check", "--validate", "--diag-level", "2", "--root", root, "--config", filepath.Join(root, "none.yaml")}, &out)
	var ev []wire.Evidence
	if jerr := json.Unmarshal(out.Bytes(), &ev); jerr != nil || len(ev) != 1 || ev[0].Task != wire.TypeValidateClean || ev[0].Diag == nil {
		t.Fatalf("output %s: %v", out.String(), jerr)
	}
	if ev[0].Diag.State != "no_gpus" {
		t.Errorf("diag = %+v", ev[0].Diag)
	}
	if err != nil && !errors.Is(err, errCheckFailed) {
		t.Errorf("err = %v", err)
	}
	for _, bad := range [][]string{{"check"}, {"check", "--validate", "--diag-level", "5"}, {"check", "--health", "--scrub"}} {
		if err := run(bad, &out); !errors.As(err, new(usageError)) {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
}

// check --health prints one pass of the watch: on a root with a GPU on
// the bus and no nvidia-smi, the GPU counted and the tool named
// unreadable.
func TestCheckHealthPrintsAReport(t *testing.T) {
	root := t.TempDir()
	for p, body := range map[string]string{"proc/sys/kernel/random/boot_id": "b-1\n", "var/log/kern.log": "",
		"sys/bus/pci/devices/0000:18:00.0/vendor": "0x10de\n", "sys/bus/pci/devices/0000:18:00.0/class": "0x030200\n"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := run([]string{"check", "--health", "--root", root}, &out); err != nil {
		t.Fatal(err)
	}
	var r wire.HealthReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("output %s: %v", out.String(), err)
	}
	if r.BootID != "b-1" || r.GPUCount != 1 || len(r.Unreadable) != 1 || r.Unreadable[0].Name != "gpu:nvidia" {
		t.Errorf("report %+v; want boot b-1, 1 GPU on the bus, nvidia-smi unreadable", r)
	}
}
