package cert

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// FromEvidence fills a predicate's evidence part from an agent task's
// evidence JSON, every measurement marked where it was taken: its digest,
// each check's verdict, the GPU summary and the tool versions, and the
// erase of the tenant drives when the evidence has one (its method, the
// canary read-back's verdict, and who erased: the drive through the
// agent, or MAAS). The caller sets the mode, times, requester and
// previous certificate.
func FromEvidence(raw []byte, where string) (Predicate, error) {
	if where != InBandTenantOS && where != AfterRedeploy && where != DaemonObserved {
		return Predicate{}, fmt.Errorf("where %q is not %q, %q or %q", where, InBandTenantOS, AfterRedeploy, DaemonObserved)
	}
	var ev wire.Evidence
	if err := json.Unmarshal(raw, &ev); err != nil {
		return Predicate{}, fmt.Errorf("evidence: %w", err)
	}
	p := Predicate{EvidenceDigest: Digest(raw), Erase: erase(ev.Erase, where)}
	for _, c := range ev.Checks {
		p.Checks = append(p.Checks, Check{Name: c.Name, Verdict: verdict(c.Passed), Where: where, Detail: c.Reason})
	}
	p.GPUs = gpuSummary(ev.GPUs, where)
	p.Outcome = OutcomeQuarantined
	if ev.Passed {
		p.Outcome = OutcomeClean
	}
	if len(ev.Tools) > 0 {
		p.Versions = map[string]string{}
		for _, t := range ev.Tools {
			p.Versions[t.Name] = t.Version
		}
	}
	return p, nil
}

// erase is the predicate's erase from the evidence's summary: "drive:
// sanitize-crypto" or "maas: quick", the canary verdict, and where the
// read-back ran.
func erase(e *wire.EraseEvidence, where string) Erase {
	if e == nil {
		return Erase{Method: "none", Canary: NotMeasured}
	}
	c := e.Canary
	if c == "" || c == wire.CanaryNotMeasured {
		c = NotMeasured
	}
	return Erase{Method: e.By + ": " + e.Mode, Canary: c, Where: where}
}

func verdict(passed bool) string {
	if passed {
		return "pass"
	}
	return "fail"
}

func gpuSummary(gpus []wire.GPUEvidence, where string) GPUSummary {
	s := GPUSummary{Count: len(gpus), Where: where}
	models := map[string]bool{}
	passed := 0
	for _, g := range gpus {
		if g.Model != "" {
			models[g.Model] = true
		}
		if g.Passed {
			passed++
		}
	}
	names := make([]string, 0, len(models))
	for m := range models {
		names = append(names, m)
	}
	sort.Strings(names)
	s.Model = strings.Join(names, ", ")
	if len(gpus) > 0 {
		s.Diagnostics = fmt.Sprintf("%d/%d passed", passed, len(gpus))
	}
	return s
}

// Serials are the GPU serials the evidence names, in its order: the
// subject's bill of materials where the node's record has none.
func Serials(raw []byte) []string {
	var ev wire.Evidence
	if json.Unmarshal(raw, &ev) != nil {
		return nil
	}
	var out []string
	for _, g := range ev.GPUs {
		if g.Serial != "" {
			out = append(out, g.Serial)
		}
	}
	return out
}
