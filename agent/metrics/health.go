package metrics

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// healthFamilies are the passive watch's metrics (agent/health). They
// are written from the watch's first pass on: an agent with the watch
// off writes none, so no rule reads its absence as zero GPUs.
type healthFamilies struct {
	lastPass, lastReport, reports, onBus, answering, unreadable, xids *family
	ecc, retired, retirePending, remapped, remapPending, remapFailure *family
	clockEvents, pcieWidth, pcieGen, nvlinks, nvlinkErrors            *family
}

func newHealthFamilies() *healthFamilies {
	g, c := "gauge", "counter"
	h := &healthFamilies{
		lastPass:      newFamily(g, "gpuaas_node_agent_health_last_pass_timestamp_seconds", "Unix time of the health watch's last pass."),
		lastReport:    newFamily(g, "gpuaas_node_agent_health_last_report_timestamp_seconds", "Unix time the daemon last accepted a health report; 0 until it does."),
		reports:       newFamily(c, "gpuaas_node_agent_health_reports_total", "Health reports sent since the agent started, by result (accepted, refused: not answered 2xx).", "result"),
		onBus:         newFamily(g, "gpuaas_node_agent_gpus_on_bus", "GPUs on the PCI bus by vendor id at the last pass, whatever the vendor tools answer."),
		answering:     newFamily(g, "gpuaas_node_agent_gpus_answering", "GPUs the vendor tools listed at the last pass."),
		unreadable:    newFamily(g, "gpuaas_node_agent_health_unreadable", "1 for each reading the last pass could not take (boot_id, kernel_xid, gpu:nvidia, gpu:amd).", "check"),
		xids:          newFamily(c, "gpuaas_node_agent_gpu_xid_events_total", "Xid events read from the kernel log since the agent started, by code and class (quarantine, reboot, reset, event).", "code", "class"),
		ecc:           newFamily(c, "gpuaas_node_agent_gpu_ecc_uncorrected_total", "Uncorrectable ECC errors the driver counts, since it loaded (volatile) or over the GPU's life (aggregate).", "gpu", "scope"),
		retired:       newFamily(g, "gpuaas_node_agent_gpu_retired_pages", "Pages retired over the GPU's life, by cause (single_bit, double_bit).", "gpu", "cause"),
		retirePending: newFamily(g, "gpuaas_node_agent_gpu_retirement_pending", "1 while a page retirement waits for the next reset or reboot.", "gpu"),
		remapped:      newFamily(g, "gpuaas_node_agent_gpu_remapped_rows", "Rows remapped over the GPU's life, by kind (correctable, uncorrectable).", "gpu", "kind"),
		remapPending:  newFamily(g, "gpuaas_node_agent_gpu_remap_pending", "1 while a row remap waits for the next reset.", "gpu"),
		remapFailure:  newFamily(g, "gpuaas_node_agent_gpu_remap_failure", "1 when a row remap failed.", "gpu"),
		clockEvents:   newFamily(g, "gpuaas_node_agent_gpu_clock_event_reasons", "Active clock event (throttle) reasons, nvidia-smi's bitmask as a number.", "gpu"),
		pcieWidth:     newFamily(g, "gpuaas_node_agent_gpu_pcie_link_width", "PCIe link width, current and the GPU's max.", "gpu", "link"),
		pcieGen:       newFamily(g, "gpuaas_node_agent_gpu_pcie_link_gen", "PCIe link generation, current and the GPU's max.", "gpu", "link"),
		nvlinks:       newFamily(g, "gpuaas_node_agent_gpu_nvlinks", "NVLink links of the GPU, by state (up, down).", "gpu", "state"),
		nvlinkErrors:  newFamily(c, "gpuaas_node_agent_gpu_nvlink_errors_total", "NVLink error counters of the GPU's links, summed (a reset clears them).", "gpu"),
	}
	h.reports.at("accepted")
	h.reports.at("refused")
	return h
}

func (h *healthFamilies) list() []*family {
	return []*family{h.lastPass, h.lastReport, h.reports, h.onBus, h.answering, h.unreadable, h.xids, h.ecc, h.retired,
		h.retirePending, h.remapped, h.remapPending, h.remapFailure, h.clockEvents, h.pcieWidth, h.pcieGen, h.nvlinks, h.nvlinkErrors}
}

// perPass are the families that hold only the last pass's series: a GPU
// gone from the tools is gone from them.
func (h *healthFamilies) perPass() []*family {
	return []*family{h.unreadable, h.ecc, h.retired, h.retirePending, h.remapped, h.remapPending, h.remapFailure,
		h.clockEvents, h.pcieWidth, h.pcieGen, h.nvlinks, h.nvlinkErrors}
}

// HealthPass records one pass of the health watch: its readings, and
// fresh, the Xid events it read first.
func (m *Metrics) HealthPass(r wire.HealthReport, fresh []wire.XidRecord) {
	m.update(func() {
		h := m.healthOn()
		for _, f := range h.perPass() {
			f.series = map[string]*sample{}
		}
		h.lastPass.at().v = seconds(r.TakenAt)
		h.onBus.at().v = float64(r.GPUCount)
		h.answering.at().v = float64(len(r.GPUs))
		for _, c := range r.Unreadable {
			h.unreadable.at(c.Name).v = 1
		}
		for _, x := range fresh {
			h.xids.at(strconv.Itoa(x.Code), x.Class).v++
		}
		for _, g := range r.GPUs {
			h.gpu(strconv.Itoa(g.Index), g.State)
		}
	})
}

// HealthReported records whether the daemon accepted a report at t.
func (m *Metrics) HealthReported(accepted bool, t time.Time) {
	m.update(func() {
		h := m.healthOn()
		if !accepted {
			h.reports.at("refused").v++
			return
		}
		h.reports.at("accepted").v++
		h.lastReport.at().v = seconds(t)
	})
}

// healthOn adds the health families to the file on first use; m.mu is
// held.
func (m *Metrics) healthOn() *healthFamilies {
	if m.health == nil {
		m.health = newHealthFamilies()
		m.all = append(m.all, m.health.list()...)
		slices.SortFunc(m.all, func(a, b *family) int { return strings.Compare(a.name, b.name) })
	}
	return m.health
}
