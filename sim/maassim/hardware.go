package maassim

import "fmt"

func (sp HostSpec) withDefaults() HostSpec {
	if sp.NVMe == 0 {
		sp.NVMe = 4
	}
	if sp.RoCE == 0 {
		sp.RoCE = 2
	}
	if sp.CPUs == 0 {
		sp.CPUs = 128
	}
	if sp.MemoryMiB == 0 {
		sp.MemoryMiB = 2 << 20
	}
	if sp.Arch == "" {
		sp.Arch = DefaultArch
	}
	return sp
}

// hostLocked returns the host at a power address, creating it (and its
// BMC) on first sight.
func (s *Sim) hostLocked(spec HostSpec) *host {
	if h, ok := s.hosts[spec.PowerAddress]; ok {
		return h
	}
	spec = spec.withDefaults()
	if spec.PXEMAC == "" {
		spec.PXEMAC = s.randMAC()
	}
	h := &host{spec: spec, bmc: s.opts.NewBMC(spec.PowerAddress)}
	s.hosts[spec.PowerAddress] = h
	return h
}

// discoverHardware is what commissioning learns: CPUs, memory, NICs and
// disks. NVMe data disks come first (MAAS orders by discovery), the BOSS
// M.2 last, so the default boot disk is not the BOSS.
func (s *Sim) discoverHardware(m *machine) {
	if m.host == nil || len(m.disks) > 0 {
		return
	}
	sp := m.host.spec
	m.cpus, m.memoryMiB = sp.CPUs, sp.MemoryMiB
	s.ensurePXEIface(m, sp.PXEMAC)
	for i := 0; i < sp.RoCE; i++ {
		m.ifaces = append(m.ifaces, &iface{id: s.nextID(), name: fmt.Sprintf("ens%df0np0", i+1),
			mac: s.randMAC(), roce: true, speed: 400000, vendor: "Mellanox Technologies",
			prod: "MT2910 Family [ConnectX-7]", links: []*link{{id: s.nextID(), mode: "link_up"}}})
	}
	for i := 0; i < sp.NVMe; i++ {
		m.disks = append(m.disks, &disk{id: s.nextID(), name: fmt.Sprintf("nvme%dn1", i),
			model: "Dell Ent NVMe CM6 RI 3.84TB", serial: fmt.Sprintf("S6%s%02d", m.systemID, i),
			size: 3840755982336})
	}
	if !sp.NoBOSS {
		m.disks = append(m.disks, &disk{id: s.nextID(), name: "sda", model: "DELLBOSS VD",
			serial: "BOSS" + m.systemID, size: 480103981056, boss: true})
	}
	for _, d := range m.disks {
		d.idPath = "/dev/disk/by-id/" + map[bool]string{true: "ata-DELLBOSS_VD_", false: "nvme-eui."}[d.boss] + d.serial
	}
	if len(m.disks) > 0 {
		m.bootDisk = m.disks[0].id
		m.layout = "flat"
		s.applyFlat(m)
	}
}

// ensurePXEIface gives m its boot NIC, AUTO-linked on the PXE subnet.
func (s *Sim) ensurePXEIface(m *machine, mac string) {
	for _, ifc := range m.ifaces {
		if ifc.mac == mac {
			return
		}
	}
	pxe := &iface{id: s.nextID(), name: "eno8303", mac: mac, vlan: s.vlans[0].id, speed: 1000,
		vendor: "Broadcom Inc. and subsidiaries", prod: "NetXtreme BCM5720"}
	pxe.links = []*link{{id: s.nextID(), mode: "auto", subnet: s.subnets[0].id}}
	m.ifaces = append([]*iface{pxe}, m.ifaces...)
}

// applyFlat lays out the boot disk as MAAS's flat layout does: an EFI
// partition and a root partition; every other disk is left unused.
func (s *Sim) applyFlat(m *machine) {
	for _, d := range m.disks {
		d.partitions = nil
		if d.id == m.bootDisk {
			d.partitions = []*partition{
				{id: s.nextID(), size: 536870912, fstype: "fat32", mountPoint: "/boot/efi", bootable: true},
				{id: s.nextID(), size: d.size - 536870912 - 4194304, fstype: "ext4", mountPoint: "/"},
			}
		}
	}
}

func (s *Sim) newSystemID() string {
	const alphabet = "abcdefghjkmnpqrstwxy3456789"
	for {
		b := make([]byte, 6)
		for i := range b {
			b[i] = alphabet[s.opts.Rand.IntN(len(alphabet))]
		}
		if _, taken := s.machines[string(b)]; !taken {
			return string(b)
		}
	}
}

func (s *Sim) randToken(n int) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[s.opts.Rand.IntN(len(alphabet))]
	}
	return string(b)
}

// ensureToken creates m's NodeKey the first time it boots into MAAS's
// ephemeral environment or deploys.
func (s *Sim) ensureToken(m *machine) {
	if m.token == nil {
		m.token = &token{consumerKey: s.randToken(18), key: s.randToken(18), secret: s.randToken(32)}
	}
}
