package maas

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// machineList is a GET machines/ answer, decoded in one pass straight
// into the domain's machines as the body arrives: only the fields the
// daemon reads are decoded (those wireMachine has, to the same values),
// the rest are skipped after a syntax check. A null answer is an empty
// list.
type machineList []lifecycle.Machine

func (l *machineList) decodeStream(s *jstream) error {
	out := make([]lifecycle.Machine, 0, 64)
	err := s.elements(func(r *jreader, i int) error {
		if i == len(out) {
			out = append(out, lifecycle.Machine{})
		} else {
			out[i] = lifecycle.Machine{} // again, over a longer window
		}
		return r.machine(&out[i])
	})
	if err != nil {
		return err
	}
	*l = out
	return nil
}

// machine decodes one machine object into m.
func (r *jreader) machine(m *lifecycle.Machine) error {
	m.IPs = []string{}
	return r.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "system_id":
			m.SystemID, err = r.str()
		case "hostname":
			m.Hostname, err = r.str()
		case "fqdn":
			m.FQDN, err = r.str()
		case "architecture":
			m.Architecture, err = r.str()
		case "status":
			var n int
			n, err = r.int()
			m.Status = Status(n)
		case "status_message":
			m.StatusMessage, err = r.str()
		case "error_description":
			m.ErrorDescription, err = r.str()
		case "power_state":
			m.PowerState, err = r.str()
		case "owner":
			m.Owner, err = r.str()
		default:
			return r.machineMore(m, key)
		}
		return err
	})
}

// machineMore decodes the machine's fields that machine leaves to it.
func (r *jreader) machineMore(m *lifecycle.Machine, key []byte) error {
	var err error
	switch string(key) {
	case "osystem":
		m.OSystem, err = r.str()
	case "distro_series":
		m.DistroSeries, err = r.str()
	case "ip_addresses":
		m.IPs, err = r.strs()
	case "boot_disk":
		m.BootDiskID, err = r.intField("id")
	case "boot_interface":
		m.BootMAC, err = r.strField("mac_address")
	case "interface_set":
		m.NICs, err = r.nics()
	case "enable_hw_sync":
		m.HWSyncEnabled, err = r.boolean()
	case "sync_interval":
		var n int
		n, err = r.int()
		m.SyncInterval = time.Duration(n) * time.Second
	case "last_sync":
		m.LastSync, err = r.time()
	case "next_sync":
		m.NextSync, err = r.time()
	default:
		err = r.skip()
	}
	return err
}
