package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// inventoryView is the part of GET /nodes/{id}/inventory the table shows.
type inventoryView struct {
	NodeID     string   `json:"node_id"`
	Serials    []string `json:"serials"`
	Recorded   *bomView `json:"recorded"`
	RecordedBy string   `json:"recorded_by"`
	Changes    []string `json:"changes"`
	Pending    bool     `json:"pending"`
}

type bomView struct {
	GPUs []struct {
		Vendor, Model, UUID, Serial, VBIOS, Source string
		BoardPartNumber                            string `json:"board_part_number"`
	} `json:"gpus"`
	Drives []struct{ Name, Serial, Model, Firmware, Source string } `json:"drives"`
	NICs   []struct {
		Name, MAC, Firmware, Source string
		PCIAddress                  string `json:"pci_address"`
	} `json:"nics"`
	BIOS string `json:"bios_version"`
	BMC  string `json:"bmc_version"`
}

// nodeInventory shows a node's bill of materials ("node inventory NODE"),
// or accepts the change a turnover found ("node inventory accept NODE
// --reason ..."; audited).
func nodeInventory(ctx context.Context, s *session, args []string) error {
	if len(args) > 0 && args[0] == "accept" {
		var out inventoryView
		s.flags().StringVar(&s.reason, "reason", "", "why (required; recorded in the audit log)")
		ref := s.nodeRef()
		id, err := s.auditedNode(ctx, args[1:], ref)
		if err != nil {
			return err
		}
		raw, err := s.call(ctx, http.MethodPost, admin+"/nodes/"+url.PathEscape(id)+"/inventory/accept",
			map[string]string{"reason": s.reason}, &out, nil)
		if err != nil {
			return err
		}
		return s.show(raw, "NODE RECORDED_BY SERIALS", [][]string{{out.NodeID, out.RecordedBy, dash(strings.Join(out.Serials, ","))}})
	}
	id, err := s.oneNode(ctx, args)
	if err != nil {
		return err
	}
	var out inventoryView
	raw, err := s.call(ctx, http.MethodGet, admin+"/nodes/"+url.PathEscape(id)+"/inventory", nil, &out, nil)
	if err != nil {
		return err
	}
	return s.show(raw, "KIND ID SERIAL MODEL FIRMWARE SOURCE", inventoryRows(out))
}

// inventoryRows lists the recorded items, then each pending change.
func inventoryRows(v inventoryView) [][]string {
	rows := [][]string{}
	if b := v.Recorded; b != nil {
		for _, g := range b.GPUs {
			rows = append(rows, []string{"gpu", g.UUID, dash(g.Serial), dash(g.Model), dash(g.VBIOS), g.Source})
		}
		for _, d := range b.Drives {
			rows = append(rows, []string{"drive", d.Name, dash(d.Serial), dash(d.Model), dash(d.Firmware), d.Source})
		}
		for _, n := range b.NICs {
			rows = append(rows, []string{"nic", n.MAC, "-", dash(n.PCIAddress), dash(n.Firmware), n.Source})
		}
		rows = append(rows, []string{"bios", "-", "-", "-", dash(b.BIOS), "agent"}, []string{"bmc", "-", "-", "-", dash(b.BMC), "agent"})
	}
	for i, c := range v.Changes {
		rows = append(rows, []string{"change", fmt.Sprint(i + 1), "-", c, "-", "pending"})
	}
	return rows
}
