package drives_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Clean on the fake nvme tool: the best method, the fallback when it
// fails, a drive with no secure method reported and left alone, a drive
// that reports success without erasing caught by its canaries, and the
// mounted filesystem made and mounted again.
func TestCleanErasesWithTheDrivesOwnMethod(t *testing.T) {
	tests := []struct {
		name       string
		setup      func(h hostT)
		wantMethod string
		wantTried  int
		wantReason string
	}{
		{"sanitize crypto erase", func(hostT) {}, "sanitize-crypto", 0, "none survived; ext4 made and mounted at /data"},
		{"crypto erase fails, block erase", func(h hostT) { nvmeState(h.Host, "nvme1", "fail", "sanact=4\n") }, "sanitize-block", 1, "none survived"},
		{"no secure method", func(h hostT) {
			nvmeState(h.Host, "nvme1", "id-ctrl.json", `{"sn":"S6DATA0001","sanicap":0,"fna":0,"oacs":0}`)
		}, "", 0, "offers no secure erase"},
		{"a drive that lies", func(h hostT) { nvmeState(h.Host, "nvme1", "noop", "") }, "sanitize-crypto", 0, "8 of 8 canaries survived at offsets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := hostT{host(t)}
			h.Mounts(append(strings.Split(strings.TrimSpace(h.Read(hostinfo.MountinfoPath)), "\n"),
				"90 25 259:3 / /data rw,relatime shared:90 - ext4 /dev/nvme1n1 rw")...)
			tt.setup(h)
			evs, checks, sum := drivesClean(t, h, wire.DrivePolicy{Serials: []string{"S6DATA0001"}})
			ev := evs[0]
			if ev.Method != tt.wantMethod || len(ev.Tried) != tt.wantTried || !strings.Contains(ev.Reason, tt.wantReason) {
				t.Fatalf("drive evidence = %+v", ev)
			}
			wantPass := tt.wantMethod != "" && tt.name != "a drive that lies"
			if ev.Passed != wantPass || checks[1].Passed != wantPass || checks[1].Name != "erase:/dev/nvme1n1" ||
				(sum.Canary == wire.CanaryPassed) != wantPass {
				t.Errorf("passed %v, checks %+v, summary %+v", ev.Passed, checks, sum)
			}
			if tt.wantMethod == "" {
				if diff := cmp.Diff([]string{"nvme id-ctrl /dev/nvme1 -o json"}, h.Exec.CallsOf("nvme")); diff != "" || len(ev.Canaries) != 0 {
					t.Errorf("a drive with no secure method was written to: nvme calls (-want +got):\n%s", diff)
				}
			}
			if wantPass && !strings.Contains(h.Read(hostinfo.MountinfoPath), "259:3 / /data rw,relatime shared:90 - ext4 /dev/nvme1n1") {
				t.Errorf("the layout is not back:\n%s", h.Read(hostinfo.MountinfoPath))
			}
		})
	}
}
