package maassim_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// TestMirrorPostgresBadDSN: a DSN that does not parse or a database that
// does not answer fails MirrorPostgres at once, and the error never holds
// the password.
func TestMirrorPostgresBadDSN(t *testing.T) {
	s := newSite(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for name, dsn := range map[string]string{
		"bad port":   "postgres://maas:s3cr3t-pw@127.0.0.1:notaport/maas",
		"no server":  "postgres://maas:s3cr3t-pw@127.0.0.1:1/maas?connect_timeout=2",
		"bad option": "host=127.0.0.1 password=s3cr3t-pw sslmode=bogus",
	} {
		t.Run(name, func(t *testing.T) {
			m, err := s.sim.MirrorPostgres(ctx, dsn, maassim.MirrorOptions{})
			if err == nil || m != nil {
				t.Fatalf("MirrorPostgres(%s) = %v, %v; want an error", name, m, err)
			}
			t.Log(err)
			if !strings.Contains(err.Error(), "postgres mirror") || strings.Contains(err.Error(), "s3cr3t-pw") {
				t.Fatalf("error %q: want one naming the postgres mirror, without the password", err)
			}
		})
	}
}
