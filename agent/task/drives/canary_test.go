package drives_test

import (
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/task/drives"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Canaries on a file-backed drive: an erase that reaches them leaves
// none; one that does nothing leaves them all; quick placement keeps
// them where MAAS's quick erase reaches, full placement does not.
func TestCanariesDetectWhatAnEraseMissed(t *testing.T) {
	const size = 64 << 20
	quick := func(t *testing.T, h hostT, dev string) {
		zero(t, h.Host, dev, 0, wire.QuickEraseBytes)
		zero(t, h.Host, dev, size-wire.QuickEraseBytes, wire.QuickEraseBytes)
	}
	tests := []struct {
		name      string
		placement string
		erase     func(*testing.T, hostT, string)
		survive   func(n int) bool
	}{
		{"full erase, full placement", wire.PlaceFull, func(t *testing.T, h hostT, dev string) { zero(t, h.Host, dev, 0, size) },
			func(n int) bool { return n == 0 }},
		{"erase that does nothing", wire.PlaceQuick, func(*testing.T, hostT, string) {}, func(n int) bool { return n == 16 }},
		{"quick erase, quick placement", wire.PlaceQuick, quick, func(n int) bool { return n == 0 }},
		{"quick erase, full placement", wire.PlaceFull, quick, func(n int) bool { return n > 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := hostT{host(t)}
			all, err := drives.List(h.Root)
			if err != nil {
				t.Fatal(err)
			}
			d := all[1]
			cs, err := drives.Plant(h.Root, d, 16, tt.placement, nil)
			if err != nil || len(cs) != 16 {
				t.Fatalf("Plant = %d canaries, %v", len(cs), err)
			}
			for _, c := range cs {
				inQuick := c.Offset < wire.QuickEraseBytes || c.Offset >= size-wire.QuickEraseBytes
				if tt.placement == wire.PlaceQuick && !inQuick || c.Offset%drives.BlockSize != 0 || len(c.SHA256) != 64 {
					t.Fatalf("canary %+v is not a block where %s erase reaches", c, tt.placement)
				}
			}
			tt.erase(t, h, d.Path())
			got, err := drives.Survivors(h.Root, d.Path(), cs)
			if err != nil || !tt.survive(len(got)) {
				t.Errorf("survivors = %v, %v", got, err)
			}
		})
	}
}
