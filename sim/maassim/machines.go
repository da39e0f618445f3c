package maassim

import (
	"context"
	"fmt"
)

var adjectives = []string{"able", "bold", "calm", "deft", "eager", "fair", "glad", "keen", "neat", "prime"}
var animals = []string{"bison", "crane", "eagle", "gecko", "heron", "ibex", "koala", "lynx", "otter", "zebra"}

// newMachineLocked makes a machine record in no status yet (the caller
// moves it from "None" to New, or seeds it).
func (s *Sim) newMachineLocked(hostname string, h *host) *machine {
	s.seq++
	sid := s.newSystemID()
	if hostname == "" {
		hostname = fmt.Sprintf("%s-%s-%d", adjectives[s.opts.Rand.IntN(len(adjectives))],
			animals[s.opts.Rand.IntN(len(animals))], s.seq)
	}
	m := &machine{seq: s.seq, systemID: sid, hostname: hostname, arch: DefaultArch,
		powerState: "unknown", power: map[string]string{}, host: h}
	if h != nil {
		m.arch = h.spec.Arch
		h.enlisted = true
		m.powerType = "ipmi"
		m.power["power_address"] = h.spec.PowerAddress
		m.power["power_driver"] = "LAN_2_0"
	}
	s.machines[sid] = m
	s.mirrorMark(m)
	return m
}

// AddMachine seeds a commissioned machine on the hardware of spec, in
// status st (New, Ready or Deployed), without events: a site as found.
// It returns the system_id.
func (s *Sim) AddMachine(spec HostSpec, hostname string, st Status) (string, error) {
	if st != StatusNew && st != StatusReady && st != StatusDeployed {
		return "", fmt.Errorf("maassim: can only seed New, Ready or Deployed machines, not %s", st)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if spec.PowerAddress == "" {
		spec.PowerAddress = fmt.Sprintf("10.15.%d.%d", (s.seq+1)/250, (s.seq+1)%250+1)
	}
	if s.hostnameTaken(hostname) {
		return "", fmt.Errorf("maassim: hostname %q already exists", hostname)
	}
	m := s.newMachineLocked(hostname, s.hostLocked(spec))
	m.status = st
	if st == StatusNew {
		// An enlisted machine knows the NIC it PXE-booted from.
		s.ensurePXEIface(m, m.host.spec.PXEMAC)
	} else {
		s.discoverHardware(m)
		m.powerState = "off"
	}
	if st == StatusDeployed {
		m.owner, m.osystem, m.distro, m.powerState = s.opts.Username, "ubuntu", "jammy", "on"
		s.assignAutoIPs(m)
		s.ensureToken(m)
	}
	return m.systemID, nil
}

// AddHost racks a server that MAAS does not know yet and returns its BMC.
// Powered on with PXE as its boot device, it enlists as a New machine
// after Durations.Discovery (scaled).
func (s *Sim) AddHost(spec HostSpec) BMC {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hostLocked(spec).bmc
}

func (s *Sim) hostnameTaken(name string) bool {
	for _, m := range s.machines {
		if name != "" && m.hostname == name {
			return true
		}
	}
	return false
}

func (s *Sim) deleteMachine(m *machine) {
	delete(s.machines, m.systemID)
	m.gen++
	if m.host != nil {
		m.host.enlisted = false
		m.host.pxeSince = zeroTime
	}
	s.emit(m, "machine.deleted")
}

// discover enlists every unenlisted host that has been powered on with
// PXE boot for the discovery delay, as MAAS enlistment does.
func (s *Sim) discover(ctx context.Context) {
	s.mu.Lock()
	var pending []*host
	for _, h := range s.hosts {
		if !h.enlisted {
			pending = append(pending, h)
		}
	}
	s.mu.Unlock()
	for _, h := range pending {
		on, err1 := h.bmc.PowerState(ctx)
		dev, err2 := h.bmc.BootDevice(ctx)
		pxe := err1 == nil && err2 == nil && on && dev == BootPXE
		s.mu.Lock()
		s.enlistIfDue(h, pxe)
		s.mu.Unlock()
	}
}

func (s *Sim) enlistIfDue(h *host, pxe bool) {
	now := s.now()
	switch {
	case h.enlisted:
	case !pxe:
		h.pxeSince = zeroTime
	case h.pxeSince.IsZero():
		h.pxeSince = now
	case now.Sub(h.pxeSince) >= s.scaled(s.opts.Durations.Discovery):
		m := s.newMachineLocked("", h)
		if h.spec.NoBMCDetect {
			m.powerType, m.power = "", map[string]string{}
		}
		s.ensurePXEIface(m, h.spec.PXEMAC)
		m.powerState = "on"
		s.event(m, levelDebug, "Node changed status", "From 'None' to 'New'")
		s.event(m, levelInfo, "New", "")
		s.emit(m, "machine.created")
	}
}
