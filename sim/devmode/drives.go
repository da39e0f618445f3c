package devmode

import (
	"context"
	"os/exec"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// erase wipes a released host's drives as MAAS's method does, through
// the fakehost binary (dev mode never links the fakes). Under the
// simulator's erase-does-nothing fault it is not called.
func (s *Site) erase(ctx context.Context, e maassim.Erased) {
	root := filepath.Join(s.dir, e.Hostname)
	bin := filepath.Join(toolsDir(), "fakehost")
	out, err := exec.CommandContext(ctx, bin, "maas-erase", "--root", root, "--method", e.Method).CombinedOutput()
	if err != nil {
		s.log.Error("simulated disk erase failed", "host", e.Hostname, "err", err, "output", string(out))
	}
}
