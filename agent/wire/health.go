package wire

import (
	"net/url"
	"time"
)

// RouteHealth takes the agent's passive health reports. Like RouteResult
// it needs the node's client certificate, and the id in the path must be
// the certificate's node.
const RouteHealth = "/internal/v1/nodes/{id}/health"

// HealthPath returns RouteHealth for node id.
func HealthPath(id string) string {
	return "/internal/v1/nodes/" + url.PathEscape(id) + "/health"
}

// HealthReport is one pass of the agent's passive watch during a
// tenancy: readings only, taken without touching the tenant's work (no
// diagnostic, no reset). The agent gives no verdict; the daemon judges
// the readings under its site's policy. Absent readings (nil pointers,
// a GPU missing from GPUs, an entry in Unreadable) are unknown, never
// healthy.
type HealthReport struct {
	// BootID is the host's boot id; Seq increases with each pass within
	// a boot. The daemon keeps the newest and ignores a replay.
	BootID  string    `json:"boot_id"`
	Seq     uint64    `json:"seq"`
	TakenAt time.Time `json:"taken_at"`
	// Interval is the watch's interval (a Go duration, "60s"), so the
	// daemon can tell a late report from a quiet one.
	Interval string `json:"interval"`
	// GPUCount counts the GPUs on the PCI bus by vendor id, whatever the
	// vendor tool answers: a GPU fallen off the bus is missing from GPUs
	// and may be missing here too.
	GPUCount int         `json:"gpu_count"`
	GPUs     []GPUHealth `json:"gpus"`
	// Xids are the kernel log's Xid events since the previous report of
	// this boot (the whole boot's on its first report).
	Xids []XidRecord `json:"xids,omitempty"`
	// Unreadable names the readings the watch could not take (tool
	// missing, timed out, refused), each with its reason.
	Unreadable []Check `json:"unreadable,omitempty"`
}

// GPUHealth is one GPU's passive reading: its identity and the same state
// fields a turnover's evidence carries (ECC, retired pages, remapped rows,
// throttle reasons, PCIe link, NVLink).
type GPUHealth struct {
	Vendor string   `json:"vendor"`
	Index  int      `json:"index"`
	UUID   string   `json:"uuid"`
	Serial string   `json:"serial,omitempty"`
	BusID  string   `json:"bus_id,omitempty"`
	Model  string   `json:"model,omitempty"`
	State  GPUState `json:"state"`
}

// XidRecord is one Xid event read from the kernel log, classified as the
// turnover's history classifies it (Class: quarantine, reboot, reset or
// event).
type XidRecord struct {
	At    time.Time `json:"at"`
	BusID string    `json:"bus_id"`
	Code  int       `json:"code"`
	Class string    `json:"class"`
	What  string    `json:"what"`
}
