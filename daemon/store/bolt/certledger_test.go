package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

func TestCertLedgerConformance(t *testing.T) {
	storetest.RunCertLedger(t, func(t *testing.T, clock *clockwork.FakeClock) storetest.Harness {
		path := filepath.Join(t.TempDir(), bolt.FileName)
		return storetest.Harness{Open: func(t *testing.T) lifecycle.Store { return mustOpen(t, path, clock) }}
	})
}
