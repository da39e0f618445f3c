package cert_test

import (
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

func TestFromEvidenceSummarisesAndMarksWhereItWasMeasured(t *testing.T) {
	raw := []byte(`{"task":"clean","passed":false,"checks":[{"name":"tenant_users","passed":true},
		{"name":"mounts","passed":false,"reason":"/mnt/weka still mounted"}],
		"gpus":[{"vendor":"nvidia","uuid":"GPU-1","model":"H100","passed":true},{"vendor":"nvidia","uuid":"GPU-2","model":"H100","passed":false}],
		"tools":[{"name":"nvidia-smi","version":"550.90.07"}]}`)
	p, err := cert.FromEvidence(raw, cert.InBandTenantOS)
	if err != nil {
		t.Fatal(err)
	}
	if p.EvidenceDigest != cert.Digest(raw) || len(p.Checks) != 2 || p.Checks[1].Verdict != "fail" ||
		p.Checks[1].Detail != "/mnt/weka still mounted" || p.Checks[0].Where != cert.InBandTenantOS {
		t.Fatalf("checks %+v digest %s", p.Checks, p.EvidenceDigest)
	}
	want := cert.GPUSummary{Count: 2, Model: "H100", Diagnostics: "1/2 passed", Where: cert.InBandTenantOS}
	if p.GPUs != want || p.Versions["nvidia-smi"] != "550.90.07" || p.Erase.Canary != cert.NotMeasured {
		t.Fatalf("gpus %+v versions %v erase %+v", p.GPUs, p.Versions, p.Erase)
	}
	if _, err := cert.FromEvidence(raw, "somewhere"); err == nil {
		t.Fatal("an unknown measurement place was accepted")
	}
	if _, err := cert.FromEvidence([]byte("{"), cert.AfterRedeploy); err == nil {
		t.Fatal("malformed evidence was accepted")
	}
}

// The erase of the tenant drives goes into the predicate with who erased,
// how, and the canary verdict where the read-back ran.
func TestFromEvidenceCarriesTheErase(t *testing.T) {
	raw := []byte(`{"task":"node.canary_check","passed":false,"checks":[{"name":"canary:/dev/nvme1n1","passed":false}],
		"erase":{"by":"maas","mode":"quick","covers":"the first and last 2 MiB of each disk","canary":"failed"}}`)
	p, err := cert.FromEvidence(raw, cert.AfterRedeploy)
	if err != nil {
		t.Fatal(err)
	}
	if want := (cert.Erase{Method: "maas: quick", Canary: "failed", Where: cert.AfterRedeploy}); p.Erase != want {
		t.Errorf("erase %+v, want %+v", p.Erase, want)
	}
}
