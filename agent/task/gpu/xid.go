package gpu

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Xid classes: what a tenancy's Xid asks of the next one.
const (
	XidQuarantine = "quarantine" // the GPU must not take a tenant again before a deep diagnostic or RMA
	XidReboot     = "reboot"     // a GPU reset does not clear it: the host must reboot
	XidReset      = "reset"      // the scrub's reset clears it
	XidRecord     = "event"      // recorded; raises the diagnostic's level
)

// xidClasses follows NVIDIA's Xid catalog for the codes the field acts on.
var xidClasses = map[int][2]string{
	48:  {XidQuarantine, "double-bit ECC error"},
	63:  {XidReset, "row remapping recorded"},
	64:  {XidQuarantine, "row remapping failure"},
	74:  {XidReset, "NVLink error"},
	79:  {XidReboot, "GPU has fallen off the bus"},
	92:  {XidQuarantine, "high single-bit ECC error rate"},
	94:  {XidReset, "contained ECC error"},
	95:  {XidReboot, "uncontained ECC error"},
	119: {XidReboot, "GSP RPC timeout"},
	120: {XidReboot, "GSP error"},
}

// XidEvent is one Xid read from the kernel log.
type XidEvent struct {
	Bus   string // busKey form: DDDD:BB:DD
	Code  int
	Class string
	What  string
}

func (e XidEvent) String() string {
	return fmt.Sprintf("Xid %d (%s): %s", e.Code, e.What, e.Class)
}

var (
	// "NVRM: Xid (PCI:0000:3b:00): 48, pid=..." anchored on NVRM so that
	// NVSwitch "SXid (PCI:...)" lines do not match.
	xidLine = regexp.MustCompile(`NVRM: Xid \(PCI:([0-9a-fA-F]+):([0-9a-fA-F]+):([0-9a-fA-F]+)(?:\.[0-9a-fA-F])?\): (\d+),`)
	// "NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus." with no Xid.
	offBus = regexp.MustCompile(`NVRM: GPU ([0-9a-fA-F]+):([0-9a-fA-F]+):([0-9a-fA-F]+)\.[0-9a-fA-F]: GPU has fallen off the bus`)
)

// ParseXids reads Xid events from kernel log text in any timestamp
// format (the match is anywhere in the line); continuation lines carry
// no Xid and are skipped.
func ParseXids(log string) []XidEvent {
	var out []XidEvent
	for _, line := range strings.Split(log, "\n") {
		if m := xidLine.FindStringSubmatch(line); m != nil {
			code, _ := strconv.Atoi(m[4])
			out = append(out, classify(pciKey(m[1], m[2], m[3]), code))
		} else if m := offBus.FindStringSubmatch(line); m != nil {
			out = append(out, classify(pciKey(m[1], m[2], m[3]), 79))
		}
	}
	return out
}

func classify(bus string, code int) XidEvent {
	c, ok := xidClasses[code]
	if !ok {
		c = [2]string{XidRecord, "see NVIDIA's Xid catalog"}
	}
	return XidEvent{Bus: bus, Code: code, Class: c[0], What: c[1]}
}

// pciKey normalises domain, bus and device to DDDD:BB:DD.
func pciKey(domain, bus, dev string) string {
	d, _ := strconv.ParseUint(domain, 16, 32)
	b, _ := strconv.ParseUint(bus, 16, 8)
	v, _ := strconv.ParseUint(dev, 16, 8)
	return fmt.Sprintf("%04X:%02X:%02X", d, b, v)
}

// busPCIKey is pciKey of an nvidia-smi bus id (00000000:3B:00.0).
func busPCIKey(busID string) string {
	p := strings.Split(strings.TrimSpace(busID), ":")
	if len(p) != 3 {
		return ""
	}
	dev, _, _ := strings.Cut(p[2], ".")
	return pciKey(p[0], p[1], dev)
}
