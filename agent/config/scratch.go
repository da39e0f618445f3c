package config

import (
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/scratchpath"
)

// validateScratch refuses a scratch root that is a system or home
// directory (or under one) and a scratch path outside the roots.
func (c Cleanup) validateScratch() error {
	for _, r := range c.ScratchRoots {
		if err := scratchpath.Deny(r); err != nil {
			return fmt.Errorf("config: cleanup.scratch_roots: %w", err)
		}
	}
	for _, p := range c.ScratchPaths {
		if err := scratchpath.Check(p, c.ScratchRoots); err != nil {
			return fmt.Errorf("config: cleanup.scratch_paths: %w", err)
		}
	}
	return nil
}
