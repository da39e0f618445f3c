package cloudinit

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// policyCases are the payload shapes every whole-output test covers.
func policyCases(t *testing.T) map[string]Params {
	base, full := baseParams(t), fullParams(t)
	shareOnly, roceOnly, roceOff := full, full, full
	shareOnly.SiteBundle, shareOnly.Policy = nil, Policy{InitShareDisks: true, ForceShareDisks: true, ShareFSType: "xfs"}
	roceOnly.Policy = Policy{EnablePhase2RoCE: true}
	roceOff.Policy = Policy{} // assignments present, phase-2 RoCE off
	noToken := base           // a redeploy after release: MAAS has no machine token yet
	noToken.HardwareSync.ConsumerKey, noToken.HardwareSync.TokenKey, noToken.HardwareSync.TokenSecret = "", "", ""
	return map[string]Params{
		"base": base, "full": full, "share-forced-xfs": shareOnly,
		"roce-no-share": roceOnly, "roce-policy-off": roceOff, "no-machine-token": noToken,
	}
}

func TestRenderGolden(t *testing.T) {
	for name, p := range policyCases(t) {
		t.Run(name, func(t *testing.T) {
			got := render(t, p)
			path := filepath.Join("testdata", name+".mime")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
			}
		})
	}
}

func TestRenderDeterministic(t *testing.T) {
	p := fullParams(t)
	if a, b := render(t, p), render(t, p); !bytes.Equal(a, b) {
		t.Error("two renders of the same input differ")
	}
	other, err := Renderer{Rand: bytes.NewReader(bytes.Repeat([]byte{1}, saltLen))}.Render(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(other, render(t, p)) {
		t.Error("a different salt gave the same output")
	}
}

func TestNoMachineTokenInstallsUnitsWithoutCredentials(t *testing.T) {
	p := baseParams(t)
	p.HardwareSync.ConsumerKey, p.HardwareSync.TokenKey, p.HardwareSync.TokenSecret = "", "", ""
	out := string(render(t, p))
	if strings.Contains(out, "path: "+MachineCredsPath) || strings.Contains(out, "token_secret") || !strings.Contains(out, HardwareSyncTimer) {
		t.Fatal("without a token the hardware-sync units are installed and no credentials file is written")
	}
	p.HardwareSync.TokenKey = "only-one-part"
	var fe *FieldError
	if err := p.Validate(); !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "hardware_sync.") {
		t.Fatalf("a partial token must be rejected: %v", err)
	}
}
