package workflow_test

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/cloudinit"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// installAgent returns the user-data's runcmd entry that installs the
// agent package: [installer, URL, sha256].
func installAgent(t *testing.T, ud []byte) []string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(ud))
	must(t, err)
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	must(t, err)
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			t.Fatal("no agent install command in the user-data")
		}
		must(t, err)
		var cfg struct {
			RunCmd [][]string `yaml:"runcmd"`
		}
		body, err := io.ReadAll(p)
		must(t, err)
		must(t, yaml.Unmarshal(body, &cfg))
		for _, c := range cfg.RunCmd {
			if len(c) == 3 && strings.HasSuffix(c[0], "/gpuaas-install-agent") {
				return c[1:]
			}
		}
	}
}

// TestAgentPackageByArchitecture: an arm64 (Grace) machine is deployed
// with the arm64 agent package, an amd64 one with the amd64 package.
func TestAgentPackageByArchitecture(t *testing.T) {
	s := newSite(t)
	var mu sync.Mutex
	userData := map[string][]byte{}
	s.enroll = func(b maassim.Boot) {
		mu.Lock()
		userData[b.Hostname] = b.UserData
		mu.Unlock()
		s.enrollHost(b.Hostname)
	}
	s.host("10.176.30.1", maassim.HostSpec{})
	s.host("10.176.30.2", maassim.HostSpec{Arch: "arm64/generic"})
	amd, arm := s.onboard("c10u01", "10.176.30.1"), s.onboard("c10u02", "10.176.30.2")
	for _, id := range []string{amd, arm} {
		if r := s.wait(id, 30*time.Second); r.Status != lifecycle.JobCompleted {
			t.Fatalf("%s: %s at %s: %s\n%s", id, r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
		}
	}
	pkgs := testBootstrap().AgentPackages
	want := map[string][]string{"c10u01": {pkgs["amd64"].URL, amdSHA}, "c10u02": {pkgs["arm64"].URL, armSHA}}
	mu.Lock()
	defer mu.Unlock()
	got := map[string][]string{}
	for host, ud := range userData {
		got[host] = installAgent(t, ud)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("agent install (URL, sha256) by host (-want +got):\n%s", d)
	}
}

// TestNoAgentPackageForTheArchitecture: an arm64 machine on a daemon that
// publishes only the amd64 package stops at render, before any deploy,
// with site_capability_missing naming the architecture and the key.
func TestNoAgentPackageForTheArchitecture(t *testing.T) {
	s := newSite(t)
	b := testBootstrap()
	b.AgentPackages = map[string]cloudinit.AgentPackage{"amd64": b.AgentPackages["amd64"]}
	s.deps.Bootstrap = b
	s.host("10.176.30.3", maassim.HostSpec{Arch: "arm64/generic"})
	r := s.wait(s.onboard("c10u03", "10.176.30.3"), 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailSiteCapabilityMissing ||
		r.CurrentStage != lifecycle.StageRenderCloudInit || r.RecommendedAction != lifecycle.ActionResume {
		t.Fatalf("got %s/%s at %s recommending %s (%s)", r.Status, r.FailureClass, r.CurrentStage,
			r.RecommendedAction, r.ErrorMessage)
	}
	for _, w := range []string{"architecture arm64", "agent.packages.arm64.url"} {
		if !strings.Contains(r.ErrorMessage, w) {
			t.Errorf("error message %q does not say %q", r.ErrorMessage, w)
		}
	}
	if n := s.log.count(r.MaasSystemID, "POST", "deploy"); n != 0 {
		t.Errorf("%d deploy calls for the machine", n)
	}
	m, err := s.client(t).Machine(context.Background(), r.MaasSystemID)
	must(t, err)
	if m.Status != lifecycle.MaasReady {
		t.Errorf("machine is %s, want Ready (never deployed)", m.Status)
	}
}
