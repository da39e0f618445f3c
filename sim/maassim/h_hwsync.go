package maassim

import "strings"

// linuxOSystems is MAAS's LINUX_OSYSTEMS (models/bootresource.py).
var linuxOSystems = map[string]bool{"ubuntu": true, "centos": true, "rhel": true, "ol": true, "custom": true}

// updateHWSync applies PUT's enable_hw_sync as MachineForm does: a
// Django BooleanField ("false" and "0" are false, any other non-empty
// value true), refused unless the machine's OS is Linux or custom (an
// undeployed machine has none, so MAAS refuses it there too); saving an
// enabled machine without sync_interval gives it hardware_sync_interval
// (Node.save).
func (s *Sim) updateHWSync(c *call, m *machine) *apiError {
	v, ok := c.params["enable_hw_sync"]
	if !ok || len(v) == 0 {
		return nil
	}
	on := v[0] != "" && !strings.EqualFold(v[0], "false") && v[0] != "0"
	if on && !linuxOSystems[m.osystem] {
		return invalid("enable_hw_sync", "Hardware sync is only supported for Linux based image deploys.")
	}
	m.enableHWSync = on
	if on && m.syncInterval == 0 {
		m.syncInterval = s.configSyncInterval()
	}
	return nil
}
