package gpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Kernel log lines in dmesg, ISO, journald short and ctime formats; an
// NVSwitch SXid and a continuation line are not GPU Xids; "fallen off
// the bus" with no Xid counts as 79.
func TestParseXidsClassifies(t *testing.T) {
	want := []XidEvent{
		{Bus: "0000:19:00", Code: 48, Class: XidQuarantine, What: "double-bit ECC error"},
		{Bus: "0000:19:00", Code: 63, Class: XidReset, What: "row remapping recorded"},
		{Bus: "0000:18:00", Code: 74, Class: XidReset, What: "NVLink error"},
		{Bus: "0000:1B:00", Code: 79, Class: XidReboot, What: "GPU has fallen off the bus"},
	}
	got := ParseXids(read(t, "kern-xid.log"))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if x := xidsOn(got, "00000000:19:00.0"); len(x) != 2 {
		t.Errorf("GPU 00000000:19:00.0 events = %v", x)
	}
	if c := classify("0000:01:00", 31); c.Class != XidRecord {
		t.Errorf("Xid 31 = %+v, want a recorded event", c)
	}
}
