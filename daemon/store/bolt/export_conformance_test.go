package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

func TestExportConformance(t *testing.T) {
	storetest.RunExport(t, func(t *testing.T, clock *clockwork.FakeClock) storetest.Harness {
		path := filepath.Join(t.TempDir(), bolt.FileName)
		return storetest.Harness{Open: func(t *testing.T) lifecycle.Store {
			s, err := bolt.Open(path, bolt.Options{Now: clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}}
	})
}
