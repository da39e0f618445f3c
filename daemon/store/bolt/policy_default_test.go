package bolt_test

import (
	"context"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// A policy stored before init_share_disks defaulted to true keeps the
// value it was stored with (false in the old file): a changed default
// applies to new sites only, never to a site on upgrade.
func TestStoredPolicyKeepsItsShareDisksValue(t *testing.T) {
	if !lifecycle.DefaultSitePolicy("x").InitShareDisks {
		t.Fatal("the default is no longer true; this test checks an upgrade across that change")
	}
	s, err := bolt.Open(copyFixture(t), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	sites, err := s.ListSites(ctx)
	if err != nil || len(sites) != 1 {
		t.Fatalf("fixture sites: %v, %v", sites, err)
	}
	p, err := s.GetSitePolicy(ctx, sites[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.InitShareDisks {
		t.Error("the old file's policy reads init_share_disks=true after the upgrade; it was stored false")
	}
}
