package drives_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task/drives"
)

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// id-ctrl's recorded JSON gives the erase methods, best first; a
// controller shared with namespaces that are not tenant drives loses the
// controller-wide ones.
func TestIDCtrlMethods(t *testing.T) {
	tests := []struct {
		file              string
		exclusive, shared []string
	}{
		{"id-ctrl-crypto.json", []string{"sanitize-crypto", "sanitize-block", "format-crypto", "format-user-data"},
			[]string{"format-crypto", "format-user-data"}},
		{"id-ctrl-format-only.json", []string{"format-user-data"}, []string{"format-user-data"}},
		{"id-ctrl-none.json", nil, nil},
		// FNA bits 0 and 1: a format erases every namespace of the controller.
		{"id-ctrl-shared-format.json", []string{"sanitize-crypto", "sanitize-block", "format-crypto", "format-user-data"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			id, err := drives.ParseIDCtrl(testdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.exclusive, id.Methods(true)); diff != "" {
				t.Errorf("exclusive (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.shared, id.Methods(false)); diff != "" {
				t.Errorf("shared controller (-want +got):\n%s", diff)
			}
		})
	}
	id, _ := drives.ParseIDCtrl(testdata(t, "id-ctrl-crypto.json"))
	if id.MN != "SAMSUNG MZQL27T6HBLA-00A07              " || id.SANICAP != 3 || id.FNA != 4 || id.OACS != 95 {
		t.Errorf("parsed %+v", id)
	}
	if _, err := drives.ParseIDCtrl([]byte("NVME Identify Controller:\nvid : 0x144d")); err == nil {
		t.Error("the plain text output parsed as JSON")
	}
}

func TestParseSanitizeLog(t *testing.T) {
	tests := []struct {
		file string
		want drives.SanitizeLog
	}{
		{"sanitize-log-done.json", drives.SanitizeLog{Progress: 65535, Status: drives.SanitizeDone}},
		{"sanitize-log-progress.json", drives.SanitizeLog{Progress: 21845, Status: drives.SanitizeInProgress}},
		{"sanitize-log-failed.json", drives.SanitizeLog{Progress: 65535, Status: drives.SanitizeFailed}},
		{"sanitize-log-numeric.json", drives.SanitizeLog{Progress: 65535, Status: drives.SanitizeDone}},
	}
	for _, tt := range tests {
		got, err := drives.ParseSanitizeLog(testdata(t, tt.file))
		if err != nil || got != tt.want {
			t.Errorf("%s: got %+v, %v; want %+v", tt.file, got, err, tt.want)
		}
	}
	for _, bad := range []string{`{}`, `{"nvme1":{"sstat":{"status":"done"}}}`, `[1]`} {
		if _, err := drives.ParseSanitizeLog([]byte(bad)); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}
