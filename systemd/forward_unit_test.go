package systemd

import (
	"slices"
	"testing"
	"time"
)

// TestForwardUnitWatchdog: the forwarder's unit waits for READY=1 and
// restarts a forwarder that stops feeding the watchdog (the binary's side
// is daemon/cmd/maas-sidecar TestNotifyForwardHealth).
func TestForwardUnitWatchdog(t *testing.T) {
	ds := readUnit(t, "maas-sidecar-notify-forward.service")
	for key, want := range map[string]string{"Type": "notify", "NotifyAccess": "main", "Restart": "on-failure"} {
		if got := values(ds, key); !slices.Equal(got, []string{want}) {
			t.Errorf("%s = %q, want %s", key, got, want)
		}
	}
	wd := values(ds, "WatchdogSec")
	if len(wd) != 1 {
		t.Fatalf("WatchdogSec lines: %q, want one", wd)
	}
	if d, err := time.ParseDuration(wd[0]); err != nil || d < 10*time.Second {
		t.Errorf("WatchdogSec = %q: want a duration of at least 10s (the loop is probed at half of it)", wd[0])
	}
}
