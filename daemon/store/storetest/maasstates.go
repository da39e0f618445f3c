package storetest

import (
	"errors"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testMaasStates: the batched write saves every record in one go, in
// the order asked, skips nodes that do not exist, and saves nothing when
// fn or one record fails.
func testMaasStates(t *testing.T, e *env) {
	s := e.site()
	a, b := e.node(s.ID, lifecycle.NodeEnrolling), e.node(s.ID, lifecycle.NodeEnrolling)
	_, err := e.st.UpdateNodeMaasState(e.ctx, a.ID, func(x *lifecycle.NodeMaasState) error { x.LastStatus = "Ready"; return nil })
	e.must(err)

	now := e.clock.Now()
	got, err := e.st.UpdateNodeMaasStates(e.ctx, []string{b.ID, "missing", a.ID}, func(x *lifecycle.NodeMaasState) error {
		x.Present, x.LastReconciledAt = true, &now
		return nil
	})
	e.must(err)
	if len(got) != 2 || got[0].NodeID != b.ID || got[1].NodeID != a.ID || got[1].LastStatus != "Ready" || !got[0].Present {
		t.Fatalf("batch: %+v", got)
	}
	for _, id := range []string{a.ID, b.ID} {
		read, err := e.st.GetNodeMaasState(e.ctx, id)
		e.must(err)
		if !read.Present || read.LastReconciledAt == nil || !read.LastReconciledAt.Equal(now) || read.SiteID != s.ID {
			t.Fatalf("read back %s: %+v", id, read)
		}
	}

	boom := errors.New("boom")
	_, err = e.st.UpdateNodeMaasStates(e.ctx, []string{a.ID, b.ID}, func(x *lifecycle.NodeMaasState) error {
		if x.NodeID == b.ID {
			return boom
		}
		x.LastStatus = "Deployed"
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("fn error: %v", err)
	}
	_, err = e.st.UpdateNodeMaasStates(e.ctx, []string{a.ID, b.ID}, func(x *lifecycle.NodeMaasState) error {
		x.LastStatus = "Deployed"
		if x.NodeID == b.ID {
			x.SiteID = "other"
		}
		return nil
	})
	e.wantCode(err, lifecycle.CodeInvalid)
	read, err := e.st.GetNodeMaasState(e.ctx, a.ID)
	e.must(err)
	if read.LastStatus != "Ready" {
		t.Fatalf("a failed batch saved %s: %+v", a.ID, read)
	}
	none, err := e.st.UpdateNodeMaasStates(e.ctx, nil, func(*lifecycle.NodeMaasState) error { return boom })
	if err != nil || len(none) != 0 {
		t.Fatalf("empty batch: %v %v", none, err)
	}
}
