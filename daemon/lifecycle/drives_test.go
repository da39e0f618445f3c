package lifecycle

import (
	"strings"
	"testing"
)

// tenant_drives: a policy must name some drive, a filesystem the agent
// can make, and a bounded canary count; errors name the field.
func TestTenantDrivesPolicy(t *testing.T) {
	tests := []struct {
		td    *TenantDrives
		field string
	}{
		{nil, ""},
		{&TenantDrives{AllNVMe: true, Filesystem: "xfs", Canaries: 16}, ""},
		{&TenantDrives{Serials: []string{"S6DATA0001"}}, ""},
		{&TenantDrives{}, "tenant_drives"},
		{&TenantDrives{Models: []string{""}}, "tenant_drives"},
		{&TenantDrives{AllNVMe: true, Filesystem: "btrfs"}, "tenant_drives.filesystem"},
		{&TenantDrives{AllNVMe: true, Canaries: 65}, "tenant_drives.canaries"},
	}
	for _, tt := range tests {
		p := DefaultSitePolicy("site-1")
		p.TenantDrives = tt.td
		err := p.Validate()
		if tt.field == "" && err != nil || tt.field != "" && (err == nil || !strings.Contains(err.Error(), tt.field)) {
			t.Errorf("%+v: %v, want field %q", tt.td, err, tt.field)
		}
	}
}

// storage_cleanup drives is a request of soft_reset, reimage and
// storage_cleanup, never of full_decommission.
func TestStorageCleanupDrivesRequest(t *testing.T) {
	for m, ok := range map[DecommissionMode]bool{ModeSoftReset: true, ModeReimage: true, ModeStorageCleanup: true, ModeFullDecommission: false} {
		err := DecommissionRequest{Mode: m, Storage: StorageDrives, Reason: "x"}.Validate()
		if (err == nil) != ok {
			t.Errorf("%s with drives: %v", m, err)
		}
	}
	if err := (DecommissionRequest{Mode: ModeSoftReset, Storage: "disks"}).Validate(); err == nil || !strings.Contains(err.Error(), "drives") {
		t.Errorf("an unknown cleanup: %v", err)
	}
}
