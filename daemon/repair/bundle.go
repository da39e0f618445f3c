package repair

import (
	"strconv"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Bundle is the RMA bundle of a repair run that found a failed part:
// what a vendor's return process asks for, as JSON.
type Bundle struct {
	NodeID       string    `json:"node_id"`
	Hostname     string    `json:"hostname"`
	SiteID       string    `json:"site_id"`
	SKU          string    `json:"sku,omitempty"`
	MaasSystemID string    `json:"maas_system_id,omitempty"`
	RunID        string    `json:"run_id"`
	Reason       string    `json:"reason,omitempty"`
	BIOSVersion  string    `json:"bios_version,omitempty"`
	BMCVersion   string    `json:"bmc_version,omitempty"`
	CollectedAt  time.Time `json:"collected_at"`
	// Parts are the failed parts.
	Parts []Part `json:"parts"`
	// HostChecks are the failed checks that name no one part.
	HostChecks []string `json:"host_checks,omitempty"`
	// Xids are the kernel log's Xid lines of the diagnostics' window.
	Xids []string `json:"xids,omitempty"`
	// Diagnostics is the DCGM diagnostic as the agent ran it.
	Diagnostics *wire.DiagEvidence `json:"diagnostics,omitempty"`
}

// Part is one failed part with its identity and its evidence.
type Part struct {
	Kind            lifecycle.PartKind `json:"kind"`
	Index           int                `json:"index"`
	Serial          string             `json:"serial,omitempty"`
	UUID            string             `json:"uuid,omitempty"`
	Model           string             `json:"model,omitempty"`
	BoardPartNumber string             `json:"board_part_number,omitempty"`
	VBIOS           string             `json:"vbios,omitempty"`
	BusID           string             `json:"bus_id,omitempty"`
	Reasons         []string           `json:"reasons"`
	// ECC is the GPU's state as the diagnostics read it: ECC counts,
	// retired pages, row remaps, NVLink and PCIe link.
	ECC *wire.GPUState `json:"ecc,omitempty"`
	// Steps are the GPU's failed checks (tenancy_history, ...).
	Steps []wire.Check `json:"steps,omitempty"`
	// Xids are the Xid lines of this GPU's bus.
	Xids []string `json:"xids,omitempty"`
	// History is the part's recorded history: earlier failures, repairs,
	// replacements, the nodes it was in.
	History []lifecycle.PartEvent `json:"history,omitempty"`
}

// NewBundle builds the RMA bundle of run on node n from its diagnostics'
// evidence ev (JudgeWith the node's recorded bill of materials); history
// gives a serial's recorded events (nil for none).
func NewBundle(run lifecycle.Run, n lifecycle.Node, ev wire.Evidence, history func(serial string) []lifecycle.PartEvent) Bundle {
	var rec *lifecycle.BOM
	if n.Inventory != nil && n.Inventory.Recorded != nil {
		rec = n.Inventory.Recorded
	}
	v := JudgeWith(ev, rec)
	b := Bundle{NodeID: n.ID, Hostname: n.Hostname, SiteID: n.SiteID, SKU: n.SKU, MaasSystemID: n.MaasSystemID,
		RunID: run.ID, Reason: run.Reason, CollectedAt: ev.CollectedAt, Parts: []Part{}, HostChecks: v.Host,
		Xids: xidLines(ev), Diagnostics: ev.Diag}
	if rec != nil {
		b.BIOSVersion, b.BMCVersion = rec.BIOSVersion, rec.BMCVersion
	}
	for _, f := range v.Failed {
		g := f.GPU
		p := Part{Kind: lifecycle.PartGPU, Index: g.Index, Serial: g.Serial, UUID: g.UUID, Model: g.Model,
			BoardPartNumber: g.BoardPartNumber, VBIOS: g.VBIOS, BusID: g.BusID, Reasons: f.Reasons, ECC: g.After}
		if p.ECC == nil {
			p.ECC = g.Before
		}
		fillFromBOM(&p, rec)
		for _, s := range g.Steps {
			if !s.Passed {
				p.Steps = append(p.Steps, s)
			}
		}
		p.Xids = onBus(b.Xids, p.BusID)
		if history != nil && p.Serial != "" {
			p.History = history(p.Serial)
		}
		b.Parts = append(b.Parts, p)
	}
	return b
}

// fillFromBOM completes a part's identity from the recorded bill of
// materials (matched by UUID, else bus id): the serial and VBIOS the
// node was accepted with.
func fillFromBOM(p *Part, rec *lifecycle.BOM) {
	if rec == nil {
		return
	}
	for _, g := range rec.GPUs {
		if (p.UUID != "" && g.UUID == p.UUID) || (p.BusID != "" && strings.EqualFold(g.BusID, p.BusID)) {
			p.Serial = cmpOr(p.Serial, g.Serial)
			p.Model, p.VBIOS = cmpOr(p.Model, g.Model), cmpOr(p.VBIOS, g.VBIOS)
			p.BoardPartNumber = cmpOr(p.BoardPartNumber, g.BoardPartNumber)
			return
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// xidLines are the kernel_xid check's lines, "bus Xid n (...)".
func xidLines(ev wire.Evidence) []string {
	for _, c := range ev.Checks {
		if c.Name == "kernel_xid" {
			return c.Items
		}
	}
	return nil
}

// onBus are the lines whose PCI address is the GPU's bus id (the agent
// writes "0000:3B:00", nvidia-smi "00000000:3B:00.0").
func onBus(lines []string, bus string) []string {
	want, ok := pciOf(bus)
	if !ok {
		return nil
	}
	var out []string
	for _, l := range lines {
		tok, _, _ := strings.Cut(l, " ")
		if got, ok := pciOf(tok); ok && got == want {
			out = append(out, l)
		}
	}
	return out
}

// pciOf is domain, bus and device of a PCI address; false when s is not one.
func pciOf(s string) ([3]uint64, bool) {
	s, _, _ = strings.Cut(strings.TrimSpace(s), ".")
	p := strings.Split(s, ":")
	var out [3]uint64
	if len(p) != 3 {
		return out, false
	}
	for i, f := range p {
		v, err := strconv.ParseUint(f, 16, 32)
		if err != nil {
			return out, false
		}
		out[i] = v
	}
	return out, true
}
