package cloudinit

import (
	"net/netip"
	"sort"
)

func sharePart(p Policy) part {
	fs := p.ShareFSType
	if fs == "" {
		fs = "ext4"
	}
	cmd := []string{shareDisksBin, "--confirm-destroy", "--fstype", fs}
	scope := "non-root disks without partitions or filesystems"
	if p.ForceShareDisks {
		cmd = append(cmd, "--force")
		scope = "ALL unmounted non-root disks, EVEN WITH partitions or filesystems (forced)"
	}
	return part{
		name: "40-DESTRUCTIVE-share-disks.cfg",
		header: []string{
			"======================================================================",
			"DESTRUCTIVE: formats " + scope,
			"as " + fs + " and mounts them at /shareN. Their data is lost.",
			"Layer 5: present only because the site policy enables it.",
			"======================================================================",
		},
		cfg: cloudConfig{
			WriteFiles: []writeFile{file(shareDisksBin, "0755", static("init-share-disks.sh"))},
			RunCmd:     [][]string{cmd},
		},
	}
}

// roceRoute is one line of the RoCE routing script.
type roceRoute struct {
	Interface string
	Addr      netip.Addr
	Peer      netip.Addr // the other end of the /31
	Net       netip.Prefix
	Table     int
}

// roceRoutes sorts validated assignments by interface and gives each its
// own table, 100 upwards.
func roceRoutes(as []RoCEAssignment) []roceRoute {
	rs := make([]roceRoute, 0, len(as))
	for _, a := range as {
		p := netip.MustParsePrefix(a.IPv4CIDR)
		b := p.Addr().As4()
		b[3] ^= 1
		rs = append(rs, roceRoute{Interface: a.Interface, Addr: p.Addr(), Peer: netip.AddrFrom4(b), Net: p.Masked()})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Interface < rs[j].Interface })
	for i := range rs {
		rs[i].Table = 100 + i
	}
	return rs
}

func rocePart(as []RoCEAssignment) (part, error) {
	script, err := execute("roce-routing.sh.tmpl", roceRoutes(as))
	if err != nil {
		return part{}, err
	}
	return part{
		name:   "50-roce-routing.cfg",
		header: []string{"Layer 6: policy routing for the node's RoCE /31 links (phase-2 RoCE)."},
		cfg: cloudConfig{
			WriteFiles: []writeFile{
				file(roceRoutingBin, "0755", script),
				file("/etc/systemd/system/"+RoCERoutingService, "0644", static(RoCERoutingService)),
			},
			RunCmd: [][]string{
				{"systemctl", "daemon-reload"},
				{"systemctl", "enable", "--now", RoCERoutingService},
			},
		},
	}, nil
}
