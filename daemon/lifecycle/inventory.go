package lifecycle

import "time"

// BOM is a node's bill of materials: the identities that must be the
// same at every turnover unless an operator accepts a change. Source on
// an item says where it came from: "maas" (commissioning data), "agent",
// or "maas+agent" where both had it. Empty strings are values not given.
type BOM struct {
	GPUs        []BOMGPU   `json:"gpus,omitempty"`
	Drives      []BOMDrive `json:"drives,omitempty"`
	NICs        []BOMNIC   `json:"nics,omitempty"`
	BIOSVersion string     `json:"bios_version,omitempty"`
	BMCVersion  string     `json:"bmc_version,omitempty"`
}

// BOMGPU is one GPU.
type BOMGPU struct {
	Vendor          string `json:"vendor"`
	Model           string `json:"model,omitempty"`
	UUID            string `json:"uuid"`
	Serial          string `json:"serial,omitempty"`
	BoardPartNumber string `json:"board_part_number,omitempty"`
	VBIOS           string `json:"vbios,omitempty"`
	BusID           string `json:"bus_id,omitempty"`
	Source          string `json:"source"`
}

// BOMDrive is one NVMe drive (or, from MAAS, any physical disk).
type BOMDrive struct {
	Name     string `json:"name"`
	Serial   string `json:"serial"`
	Model    string `json:"model,omitempty"`
	Firmware string `json:"firmware,omitempty"`
	Source   string `json:"source"`
}

// BOMNIC is one physical network interface.
type BOMNIC struct {
	Name       string `json:"name"`
	MAC        string `json:"mac"`
	Firmware   string `json:"firmware,omitempty"`
	PCIAddress string `json:"pci_address,omitempty"`
	Source     string `json:"source"`
}

// NodeInventory is what the daemon keeps of a node's hardware, inside
// the node record: the accepted BOM (recorded at onboarding, or when an
// operator accepted a change), and the last observation that differed
// from it with the readable differences. Pending is true while such a
// difference waits for an operator.
type NodeInventory struct {
	Recorded   *BOM       `json:"recorded,omitempty"`
	RecordedAt *time.Time `json:"recorded_at,omitempty"`
	// RecordedBy is "onboarding", "first_turnover" (a node onboarded
	// before inventories were kept) or "operator".
	RecordedBy string     `json:"recorded_by,omitempty"`
	Observed   *BOM       `json:"observed,omitempty"`
	ObservedAt *time.Time `json:"observed_at,omitempty"`
	Changes    []string   `json:"changes,omitempty"`
	Pending    bool       `json:"pending"`
	// Enrolled is what the agent reported with its latest enrollment,
	// which the onboarding (or a reimage) judges and records.
	Enrolled   *BOM       `json:"enrolled,omitempty"`
	EnrolledAt *time.Time `json:"enrolled_at,omitempty"`
}

// AgentSeen is b without the items only MAAS reported: what an agent's
// report is compared with.
func (b BOM) AgentSeen() BOM {
	out := BOM{BIOSVersion: b.BIOSVersion, BMCVersion: b.BMCVersion, GPUs: b.GPUs}
	for _, d := range b.Drives {
		if d.Source != SourceMAAS {
			out.Drives = append(out.Drives, d)
		}
	}
	for _, n := range b.NICs {
		if n.Source != SourceMAAS {
			out.NICs = append(out.NICs, n)
		}
	}
	return out
}

// Inventory sources.
const (
	SourceMAAS  = "maas"
	SourceAgent = "agent"
	SourceBoth  = "maas+agent"
	// SourceOperator: a part an operator's replacement named, until the
	// acceptance check's inventory records it as the agent read it.
	SourceOperator = "operator"
)

// Serials returns the serial numbers of the BOM, GPUs first, then drives,
// each in BOM order; items without one are left out.
func (b BOM) Serials() []string {
	var out []string
	for _, g := range b.GPUs {
		if g.Serial != "" {
			out = append(out, g.Serial)
		}
	}
	for _, d := range b.Drives {
		if d.Serial != "" {
			out = append(out, d.Serial)
		}
	}
	return out
}

// Serials returns the serials of the node's accepted BOM (GPUs first,
// then drives); nil when none is recorded. The clean certificate names
// the hardware by these.
func (n Node) Serials() []string {
	if n.Inventory == nil || n.Inventory.Recorded == nil {
		return nil
	}
	return n.Inventory.Recorded.Serials()
}

// Accept returns inv with its pending observation made the recorded BOM
// (RecordedBy operator), keeping the recorded items only MAAS reported;
// conflict when nothing is pending.
func (inv *NodeInventory) Accept(nodeID string, at time.Time) (*NodeInventory, error) {
	if inv == nil || !inv.Pending || inv.Observed == nil {
		return nil, Errorf(CodeConflict, "lifecycle.Accept", "node %s has no inventory change waiting to be accepted", nodeID)
	}
	b := *inv.Observed
	if inv.Recorded != nil {
		for _, d := range inv.Recorded.Drives {
			if d.Source == SourceMAAS {
				b.Drives = append(b.Drives, d)
			}
		}
		for _, n := range inv.Recorded.NICs {
			if n.Source == SourceMAAS {
				b.NICs = append(b.NICs, n)
			}
		}
	}
	out := *inv
	out.Recorded, out.RecordedAt, out.RecordedBy = &b, &at, "operator"
	out.Observed, out.ObservedAt, out.Changes, out.Pending = nil, nil, nil, false
	return &out, nil
}
