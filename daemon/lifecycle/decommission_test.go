package lifecycle

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecommissionModeStages(t *testing.T) {
	want := map[DecommissionMode][]Stage{
		ModeSoftReset: {"disable_node", "drain_node", "cleanup_storage", "scrub_gpu", "validate_clean_node", "enable_node"},
		ModeReimage: {"disable_node", "drain_node", "cleanup_storage", "load_site_config", "release_maas_node",
			"configure_storage", "apply_roce_phase2", "ensure_pxe_interface_auto", "render_cloud_init",
			"deploy_via_maas", "wait_for_deployed", "ensure_hardware_sync_configured",
			"wait_for_hardware_sync_healthy", "wait_for_agent_enrollment", "enable_node"},
		ModeFullDecommission: {"disable_node", "force_release_allocations", "drain_node", "load_site_config",
			"release_maas_node", "power_off_maas_node", "retire_gpuaas_node", "remove_gpuaas_node_record",
			"cleanup_secrets", "remove_maas_record"},
		ModeStorageCleanup: {"cleanup_storage", "validate_clean_node"},
	}
	for mode, stages := range want {
		if diff := cmp.Diff(stages, mode.Stages()); diff != "" {
			t.Errorf("%s stages (-seed +got):\n%s", mode, diff)
		}
	}
	known := map[Stage]bool{StageEnableNode: true}
	for _, s := range append(append([]Stage{}, DecommissionStages...), OnboardingStages...) {
		known[s] = true
	}
	for _, m := range DecommissionModes {
		for _, s := range m.Stages() {
			if !known[s] {
				t.Errorf("%s uses %s, which is in no catalog", m, s)
			}
		}
	}
	if ModeSoftReset.TouchesMaas() || ModeStorageCleanup.TouchesMaas() || !ModeReimage.TouchesMaas() {
		t.Error("only reimage and full decommission touch MAAS")
	}
	s := ModeSoftReset.Stages()
	s[0] = "mutated"
	if ModeSoftReset.Stages()[0] != StageDisableNode {
		t.Error("Stages must return a copy")
	}
}

func TestDecommissionRequestValidation(t *testing.T) {
	cases := []struct {
		req   DecommissionRequest
		field string
	}{
		{DecommissionRequest{Mode: ModeSoftReset, Storage: StorageLocal}, ""},
		{DecommissionRequest{Mode: ModeReimage, Erase: EraseQuick, Storage: StorageAll}, ""},
		{DecommissionRequest{Mode: ModeFullDecommission, Erase: EraseSecure}, ""},
		{DecommissionRequest{Mode: ModeStorageCleanup, Storage: StorageWeka}, ""},
		{DecommissionRequest{Mode: "nuke"}, "mode"},
		{DecommissionRequest{Mode: ModeSoftReset, Erase: EraseQuick}, "erase"},
		{DecommissionRequest{Mode: ModeReimage, Erase: "shred"}, "erase"},
		{DecommissionRequest{Mode: ModeFullDecommission, Storage: StorageLocal}, "storage_cleanup"},
		{DecommissionRequest{Mode: ModeStorageCleanup}, "storage_cleanup"},
		{DecommissionRequest{Mode: ModeSoftReset, Storage: "tape"}, "storage_cleanup"},
	}
	for _, c := range cases {
		err := c.req.Validate()
		if c.field == "" && err != nil {
			t.Errorf("%+v rejected: %v", c.req, err)
		}
		if c.field != "" && (ErrorCode(err) != CodeInvalid || ErrorField(err) != c.field) {
			t.Errorf("%+v: got %v (field %q), want invalid %s", c.req, err, ErrorField(err), c.field)
		}
	}
}
