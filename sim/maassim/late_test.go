package maassim_test

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// A late deploy is answered 504 without acting: a re-read still shows the
// machine Ready. It acts just before the next deploy is served, which
// MAAS then refuses with 409 naming the state the late one left.
func TestLateRequestActsBeforeTheNextOfItsKey(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	st.sim.SetOpFault("deploy", maassim.OpFault{Late: 1})
	if r := st.call(t, "POST", machineOp(sid, "deploy"), nil); r.code != 504 {
		t.Fatalf("late deploy answered %d %s, want 504", r.code, r.body)
	}
	wantStatus(t, st, sid, "Ready")
	r := st.call(t, "POST", machineOp(sid, "deploy"), nil)
	if r.code != 409 || !strings.Contains(r.body, "Can't deploy a machine that is in the 'Deploying' state") {
		t.Fatalf("deploy after a late one answered %d %q, want 409 naming Deploying", r.code, r.body)
	}
	if r := st.call(t, "POST", machineOp(sid, "deploy"), nil); r.code != 409 {
		t.Fatalf("the Late fault did not count down: %d", r.code)
	}
}
