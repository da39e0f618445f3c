package systemd

import (
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/cloudinit"
)

const agentUnit = "gpuaas-node-agent.service"

// mountNamespaceKeys are the settings that make systemd run a service in a
// mount namespace of its own (systemd's exec_needs_mount_namespace). In
// one, the agent's umount would not reach the host, and /tmp would not be
// the host's /tmp that storage cleanup scrubs and validation inspects.
var mountNamespaceKeys = []string{
	"PrivateTmp", "PrivateMounts", "PrivateDevices", "PrivateIPC", "ProtectSystem", "ProtectHome",
	"ProtectKernelTunables", "ProtectKernelModules", "ProtectKernelLogs", "ProtectControlGroups",
	"ProtectProc", "ProcSubset", "ReadWritePaths", "ReadOnlyPaths", "InaccessiblePaths", "ExecPaths",
	"NoExecPaths", "TemporaryFileSystem", "BindPaths", "BindReadOnlyPaths", "RootDirectory",
	"RootImage", "MountImages", "MountAPIVFS", "MountFlags", "DynamicUser", "LogNamespace",
}

func TestAgentUnitSharesTheHostMountNamespace(t *testing.T) {
	for _, d := range readUnit(t, agentUnit) {
		if slices.Contains(mountNamespaceKeys, d.key) {
			t.Errorf("%s=%s gives the agent a mount namespace of its own: its unmounts and /tmp scrubs would miss the host", d.key, d.value)
		}
	}
}

// TestAgentUnitCapabilities pins the bounding set: a capability added
// must come with its reason in the unit and in docs/systemd-hardening.md.
func TestAgentUnitCapabilities(t *testing.T) {
	caps := values(readUnit(t, agentUnit), "CapabilityBoundingSet")
	if len(caps) != 1 {
		t.Fatalf("CapabilityBoundingSet lines: %q, want one", caps)
	}
	got := strings.Fields(caps[0])
	slices.Sort(got)
	want := []string{"CAP_AUDIT_WRITE", "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_KILL", "CAP_SYS_ADMIN", "CAP_SYS_PTRACE"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bounding set (-want +got):\n%s", diff)
	}
}

// TestAgentUnitStartConditions checks that the unit waits for the token
// where cloud-init writes it and the agent reads it, or for the
// certificate the agent keeps after enrolling.
func TestAgentUnitStartConditions(t *testing.T) {
	stateDir := "/var/lib/gpuaas-node-agent"
	if !slices.Contains(values(readUnit(t, agentUnit), "StateDirectory"), path.Base(stateDir)) {
		t.Fatalf("StateDirectory is no longer %s", path.Base(stateDir))
	}
	if cloudinit.EnrollmentTokenPath != config.Defaults().EnrollmentTokenPath {
		t.Fatalf("cloud-init writes the token to %s, the agent reads %s", cloudinit.EnrollmentTokenPath, config.Defaults().EnrollmentTokenPath)
	}
	want := []string{"|" + config.Defaults().EnrollmentTokenPath, "|" + path.Join(stateDir, state.CertFile)}
	got := values(readUnit(t, agentUnit), "ConditionPathExists")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ConditionPathExists (-want +got):\n%s", diff)
	}
}
