package workflow

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// racingMAAS finishes the deploy between the compensation's read and its
// abort, as MAAS does when the deploy's last step lands first.
type racingMAAS struct {
	status []lifecycle.MaasStatus // what each read answers, in turn
	calls  []string
}

func (m *racingMAAS) Machine(_ context.Context, sid string) (lifecycle.Machine, error) {
	st := m.status[0]
	if len(m.status) > 1 {
		m.status = m.status[1:]
	}
	m.calls = append(m.calls, "read:"+st.String())
	return lifecycle.Machine{SystemID: sid, Status: st}, nil
}

func (m *racingMAAS) Abort(context.Context, string, string) (lifecycle.Machine, error) {
	m.calls = append(m.calls, "abort")
	return lifecycle.Machine{}, lifecycle.Errorf(lifecycle.CodeConflict, "maas: abort",
		"Cannot abort deployment: node is in Deployed state")
}

func (m *racingMAAS) Release(context.Context, string, lifecycle.ReleaseSpec) (lifecycle.Machine, error) {
	m.calls = append(m.calls, "release")
	return lifecycle.Machine{}, nil
}

// A deploy that ends while the cancel's abort is on its way is released
// from where it ended, not left Deployed with the cancel failed.
func TestTakeBackReleasesADeployThatEndedUnderTheAbort(t *testing.T) {
	m := &racingMAAS{status: []lifecycle.MaasStatus{lifecycle.MaasDeploying, lifecycle.MaasDeployed}}
	if err := takeBack(context.Background(), m, m, "abc123", true); err != nil {
		t.Fatalf("takeBack: %v (calls %v)", err, m.calls)
	}
	if got := strings.Join(m.calls, ","); got != "read:Deploying,abort,read:Deployed,release" {
		t.Errorf("calls = %s", got)
	}
	// A machine that keeps refusing is an error, after one more read.
	m = &racingMAAS{status: []lifecycle.MaasStatus{lifecycle.MaasDeploying}}
	if err := takeBack(context.Background(), m, m, "abc123", true); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Errorf("a machine still deploying after a refused abort: %v, want the conflict (calls %v)", err, m.calls)
	}
}
