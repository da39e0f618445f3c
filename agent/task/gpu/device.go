package gpu

import (
	"context"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Device is one GPU as a vendor tool reported it.
type Device struct {
	ID    wire.GPUEvidence // identity fields only (Vendor, Index, UUID, Serial, BusID, Model)
	State wire.GPUState
}

// Vendor is one vendor's tool. Errors wrap task.ErrNotFound when the tool
// is not installed.
type Vendor interface {
	// Name is wire.VendorNVIDIA or wire.VendorAMD.
	Name() string
	// Version names the tool and the version it reports.
	Version(ctx context.Context) (wire.ToolVersion, error)
	// Inventory reads every GPU's identity and state, processes included.
	Inventory(ctx context.Context) ([]Device, error)
	// Reset resets the given GPUs (all of the vendor's on the node) and
	// returns the error of each that failed, keyed by UUID.
	Reset(ctx context.Context, devs []Device) map[string]error
	// Settle resets clocks, compute mode and volatile ECC counters where
	// the vendor has them, one check per step.
	Settle(ctx context.Context, d Device) []wire.Check
	// MemoryUsedMaxMiB is the default clean threshold.
	MemoryUsedMaxMiB() int64
}

// Noter is a Vendor that has evidence lines of its own about the tool,
// e.g. which query fields the driver does not offer.
type Noter interface {
	Notes(ctx context.Context) []wire.Check
}

// MIGTearer is a Vendor with partitioned GPUs: TeardownMIG destroys a
// GPU's compute and GPU instances and sets the MIG mode the site
// configures (disabled by default), one check per step. The new mode
// takes effect at the reset that follows.
type MIGTearer interface {
	TeardownMIG(ctx context.Context, d Device, layout string) []wire.Check
}

// absent reports whether a tool printed "no value" rather than a value.
func absent(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s == "N/A" || (strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"))
}

// text returns s, or "" when absent.
func text(s string) string {
	if absent(s) {
		return ""
	}
	return strings.TrimSpace(s)
}

// integer parses a count or MiB value ("0", "81559", "81559 MiB"); absent
// or unparsable values are nil.
func integer(s string) *int64 {
	s = text(s)
	if f := strings.Fields(s); len(f) > 0 {
		s = f[0]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}

// decimal parses a value such as a power limit ("700.00", "700.00 W");
// absent or unparsable values are nil.
func decimal(s string) *float64 {
	s = text(s)
	if f := strings.Fields(s); len(f) > 0 {
		s = f[0]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &v
}

// yesNo parses "Yes"/"No"; anything else is nil.
func yesNo(s string) *bool {
	switch text(s) {
	case "Yes":
		t := true
		return &t
	case "No":
		f := false
		return &f
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
