package lifecycle

import (
	"fmt"
	"regexp"
	"strconv"
)

// RackController is a MAAS rack controller as rackcontrollers/ shows it:
// its MAAS version ("" when MAAS does not know it yet) and the state of
// each of its services by name (running, degraded, dead, off, unknown).
type RackController struct {
	SystemID, Hostname, Version string
	Services                    map[string]string
}

// MaasCapability is a MAAS feature a site policy relies on, with the
// first MAAS release that offers everything the daemon uses of it.
type MaasCapability struct {
	Name  string
	Since [3]int
	Why   string
}

// CapHardwareSync is hardware sync as the daemon enforces it: the sync
// fields (3.2.0), op=get_token (3.1.0) and enable_hw_sync in the machine
// JSON (3.4.0), without which the invariant cannot be observed.
var CapHardwareSync = MaasCapability{Name: "hardware_sync", Since: [3]int{3, 4, 0},
	Why: "enable_hw_sync is in the machine JSON since 3.4.0, last_sync/sync_interval since 3.2.0, op=get_token since 3.1.0"}

// RequiredMaasCapabilities are the capabilities p needs of MAAS.
func RequiredMaasCapabilities(p SitePolicy) []MaasCapability {
	if p.RequireHWSync {
		return []MaasCapability{CapHardwareSync}
	}
	return nil
}

var maasVersionRE = regexp.MustCompile(`^(?:\d+:)?(\d+)\.(\d+)\.(\d+)`)

// MissingCapability returns the first capability of caps that MAAS
// version v lacks, and a message naming it; ok is true when v has them
// all. A version MAAS's own grammar cannot read lacks every capability.
func (v MaasVersion) MissingCapability(caps []MaasCapability) (MaasCapability, string, bool) {
	m := maasVersionRE.FindStringSubmatch(v.Version)
	for _, c := range caps {
		if m == nil {
			return c, fmt.Sprintf("MAAS version %q is unreadable; %s needs MAAS >= %d.%d.%d", v.Version, c.Name,
				c.Since[0], c.Since[1], c.Since[2]), false
		}
		for i := 0; i < 3; i++ {
			n, _ := strconv.Atoi(m[i+1])
			if n > c.Since[i] {
				break
			}
			if n < c.Since[i] {
				return c, fmt.Sprintf("MAAS %s lacks %s: it needs MAAS >= %d.%d.%d (%s)", v.Version, c.Name,
					c.Since[0], c.Since[1], c.Since[2], c.Why), false
			}
		}
	}
	return MaasCapability{}, "", true
}
