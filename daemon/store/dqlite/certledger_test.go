//go:build dqlite

package dqlite_test

import (
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

func TestCertLedgerConformance(t *testing.T) {
	storetest.RunCertLedger(t, func(t *testing.T, clock *clockwork.FakeClock) storetest.Harness {
		dir, addr := t.TempDir(), freeport.Addr(t)
		return storetest.Harness{Open: func(t *testing.T) lifecycle.Store { return mustOpen(t, dir, addr, clock) }}
	})
}
