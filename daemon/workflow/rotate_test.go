package workflow_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// A BMC password rotated in Vault while a batch runs is used by the next
// stage that reads it, without a restart: the request log shows what each
// machine creation sent to MAAS.
func TestRotatedCredentialUsedMidBatch(t *testing.T) {
	s := newSite(t)
	_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.BatchMaxParallel = 1 // one machine at a time, so "mid-batch" is exact
		return nil
	})
	must(t, err)
	rotated := make(chan struct{})
	s.log.setAfter(func(call string) {
		if call == "POST /MAAS/api/2.0/machines/ " {
			select {
			case <-rotated:
			default:
				s.secrets.put("kv/maas-sites/site-1/power/default", map[string]string{"user": "root", "pass": "bmc-pass-2"})
				close(rotated)
			}
		}
	})
	var ids []string
	for i := 0; i < 3; i++ {
		ip := fmt.Sprintf("10.176.20.%d", i+10)
		s.host(ip, maassim.HostSpec{})
		ids = append(ids, s.onboard(fmt.Sprintf("c11u%02d", i), ip))
	}
	for _, id := range ids {
		if r := s.wait(id, 30*time.Second); r.Status != lifecycle.JobCompleted {
			t.Fatalf("%s: %s %s", id, r.Status, r.ErrorMessage)
		}
	}
	s.log.mu.Lock()
	got := strings.Join(s.log.bmcPass, ",")
	s.log.mu.Unlock()
	if got != "bmc-pass-1,bmc-pass-2,bmc-pass-2" {
		t.Fatalf("BMC passwords sent per creation = %s; the rotation must apply to the next read", got)
	}
}
