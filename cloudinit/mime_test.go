package cloudinit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

func TestMIMEPartsInLayerOrder(t *testing.T) {
	all := []string{"00-site-bootstrap.cfg", "05-upstream-dns.cfg", "10-deploy-user.cfg", "20-node-agent.cfg",
		"30-maas-hardware-sync.cfg", "40-DESTRUCTIVE-share-disks.cfg", "50-roce-routing.cfg"}
	want := map[string][]string{
		"base":             all[2:5],
		"full":             all,
		"share-forced-xfs": {all[1], all[2], all[3], all[4], all[5]},
		"roce-no-share":    {all[0], all[1], all[2], all[3], all[4], all[6]},
		"roce-policy-off":  all[:5],
		"no-machine-token": all[2:5],
	}
	for name, p := range policyCases(t) {
		t.Run(name, func(t *testing.T) {
			var names []string
			for _, part := range splitMIME(t, render(t, p)) {
				names = append(names, part.Name)
				if part.ContentType != "text/cloud-config" || part.MergeType != MergeType {
					t.Errorf("%s: Content-Type %q, Merge-Type %q", part.Name, part.ContentType, part.MergeType)
				}
				if !strings.HasPrefix(part.Body, "#cloud-config\n") {
					t.Errorf("%s does not start with #cloud-config", part.Name)
				}
				var cfg cloudConfig
				if err := yaml.Unmarshal([]byte(part.Body), &cfg); err != nil {
					t.Errorf("%s is not YAML: %v", part.Name, err)
				}
			}
			if diff := cmp.Diff(want[name], names); diff != "" {
				t.Errorf("part names (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDestructivePartIsLoud checks the /shareN part says what it does and
// passes --force only when the policy forces it.
func TestDestructivePartIsLoud(t *testing.T) {
	for name, p := range policyCases(t) {
		cfg, body, ok := findPart(t, render(t, p), "40-DESTRUCTIVE-share-disks.cfg")
		if ok != p.Policy.InitShareDisks {
			t.Errorf("%s: share part present=%v, policy init_share_disks=%v", name, ok, p.Policy.InitShareDisks)
		}
		if !ok {
			continue
		}
		if !strings.HasPrefix(body, "#cloud-config\n# =====") || !strings.Contains(body, "# DESTRUCTIVE:") {
			t.Errorf("%s: share part lacks its DESTRUCTIVE comment header", name)
		}
		cmd := strings.Join(cfg.RunCmd[0], " ")
		if !strings.Contains(cmd, "--confirm-destroy") || strings.Contains(cmd, "--force") != p.Policy.ForceShareDisks {
			t.Errorf("%s: command %q does not match policy %+v", name, cmd, p.Policy)
		}
	}
}

// findPart returns the named part's decoded config and raw body.
func findPart(t *testing.T, ud []byte, name string) (cloudConfig, string, bool) {
	t.Helper()
	for _, part := range splitMIME(t, ud) {
		if part.Name == name {
			var cfg cloudConfig
			if err := yaml.Unmarshal([]byte(part.Body), &cfg); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return cfg, part.Body, true
		}
	}
	return cloudConfig{}, "", false
}
