package maas_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// sameDecode fails t unless the client's decode of body gives what
// encoding/json into the wire types gave: the same machines, or an
// error with the same code and message; and unless the decode gives the
// same through windows of a few bytes, read a byte at a time.
func sameDecode(t *testing.T, body []byte) []lifecycle.Machine {
	t.Helper()
	got, gotErr := maas.DecodeMachines(body)
	want, wantErr := maas.UnmarshalMachines(body)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%.80q: error %v, encoding/json's %v", body, gotErr, wantErr)
	}
	if wantErr != nil {
		var g, w *lifecycle.Error
		if !errors.As(gotErr, &g) || !errors.As(wantErr, &w) || g.Code != w.Code || g.Op != w.Op || g.Msg != w.Msg {
			t.Fatalf("%.80q: error %v, encoding/json's %v", body, gotErr, wantErr)
		}
		sameThroughWindows(t, body, nil, gotErr)
		return nil
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%.80q: decode differs from encoding/json's (-json +ours):\n%s", body, d)
	}
	sameThroughWindows(t, body, got, nil)
	return got
}

// sameThroughWindows fails t unless decoding body through small windows,
// a byte at a time, gives want or, for a refused body, the error wantErr
// with the same text (the same syntax error at the same body offset).
func sameThroughWindows(t *testing.T, body []byte, want []lifecycle.Machine, wantErr error) {
	t.Helper()
	for _, window := range []int{1, 7, 64, 256} {
		got, err := maas.DecodeMachinesFrom(iotest.OneByteReader(bytes.NewReader(body)), 1<<20, window)
		if wantErr != nil {
			if err == nil || err.Error() != wantErr.Error() {
				t.Fatalf("%.80q through a %d-byte window: error %v, want %v", body, window, err, wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%.80q through a %d-byte window: %v", body, window, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%.80q through a %d-byte window differs (-whole +windowed):\n%s", body, window, d)
		}
	}
}

func TestMachineListDecodeMatchesEncodingJSON(t *testing.T) {
	e := newEnv(t, 20)
	got := sameDecode(t, recordMachineList(t, e))
	if len(got) != 20 {
		t.Fatalf("%d machines", len(got))
	}
	for _, m := range got {
		if m.SystemID == "" || m.Status != lifecycle.MaasReady || m.BootMAC == "" || m.BootDiskID == 0 || len(m.NICs) == 0 ||
			len(m.NICs[0].Links) == 0 || m.NICs[0].Links[0].SubnetCIDR == "" {
			t.Fatalf("machine not fully decoded: %+v", m)
		}
	}
}

// everyField is a MAAS machine list whose first machine sets every field
// the daemon reads, with escapes; the second is all nulls.
const everyField = `[{"system_id": "abc123", "hostname": "gpu-\u00e9\n1", "fqdn": "gpu-1.maas", "architecture": "arm64/generic",
 "status": 6, "status_message": "Deployed", "error_description": "none \"really\"", "power_state": "on", "owner": "admin",
 "osystem": "ubuntu", "distro_series": "jammy", "ip_addresses": ["10.0.0.5", "fd00::5"],
 "boot_disk": {"id": 7, "size": 1000, "tags": ["ssd"], "partitions": [{"id": 1}]},
 "boot_interface": {"id": 1, "mac_address": "b8:ca:3a:00:00:01", "vlan": {"vid": 0}},
 "interface_set": [{"id": 1, "name": "eno1", "type": "physical", "mac_address": "b8:ca:3a:00:00:01", "enabled": true,
   "vlan": {"id": 5001, "vid": 30, "mtu": 1500}, "links": [{"id": 2, "mode": "static", "ip_address": "10.0.0.5",
   "subnet": {"id": 4, "cidr": "10.0.0.0/24", "vlan": {"vid": 30}, "dns_servers": []}}], "vendor": null},
   {"id": 2, "name": "bond0", "type": "bond", "mac_address": null, "vlan": null, "links": []}],
 "enable_hw_sync": true, "sync_interval": 900, "last_sync": "2024-11-21T23:50:01.123", "next_sync": "2024-11-22T00:05:01Z",
 "pool": {"name": "default"}, "numbers": [0, -1, 2.5, 1e9, -3.25E-2], "flags": [true, false, null], "x": {"y": [[{}]]}},
 {"system_id": null, "hostname": null, "status": null, "owner": null, "ip_addresses": null, "boot_disk": null,
 "boot_interface": null, "interface_set": null, "enable_hw_sync": null, "sync_interval": null, "last_sync": null}]`

func TestMachineListDecodeEveryField(t *testing.T) {
	got := sameDecode(t, []byte(everyField))
	m := reflect.ValueOf(got[0])
	for i := 0; i < m.NumField(); i++ {
		if m.Field(i).IsZero() {
			t.Errorf("the fixture leaves lifecycle.Machine.%s zero: set it, so that the decode is held to it", m.Type().Field(i).Name)
		}
	}
	if got[1].IPs == nil || got[1].NICs != nil || got[1].LastSync != nil {
		t.Fatalf("null machine: %+v", got[1])
	}
}
