package workflow

import (
	"context"
	"regexp"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// bossPattern finds the BOSS boot disk (seed 001 §4.3) by model, name or
// id_path.
var bossPattern = regexp.MustCompile(`(?i)boss|boot optimized|m\.2`)

// configureStorage sets the BOSS disk as boot disk and applies the flat
// layout on it; no BOSS disk is a hardware mismatch.
func (d Deps) configureStorage(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if m.Status != lifecycle.MaasReady {
		return runner.Outcome{}, notEditable(m, "storage")
	}
	disks, err := s.storage.Disks(ctx, m.SystemID)
	if err != nil {
		return runner.Outcome{}, err
	}
	var boss *lifecycle.Disk
	for i, dk := range disks {
		if bossPattern.MatchString(dk.Model) || bossPattern.MatchString(dk.Name) || bossPattern.MatchString(dk.IDPath) {
			boss = &disks[i]
			break
		}
	}
	if boss == nil {
		c.Detail("disks", strconv.Itoa(len(disks)))
		return runner.Outcome{}, runner.Classed(lifecycle.FailHardwareMismatch, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "no BOSS boot disk (model, name or id_path matching boss|boot optimized|m.2) among %d disks", len(disks)))
	}
	if m.BootDiskID != boss.ID {
		if err := s.storage.SetBootDisk(ctx, m.SystemID, boss.ID); err != nil {
			return runner.Outcome{}, err
		}
	}
	if _, err := s.storage.SetStorageLayout(ctx, m.SystemID, "flat", boss.ID); err != nil {
		return runner.Outcome{}, err
	}
	c.SetVar(varBossDisk, strconv.Itoa(boss.ID))
	c.Detail("boss_disk", boss.Name+" "+boss.Model)
	return runner.Done("boot disk " + boss.Name + ", flat layout"), nil
}

// notEditable: MAAS only edits Ready machines; anything else here means the
// machine moved under the run.
func notEditable(m lifecycle.Machine, what string) error {
	return runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
		"cannot change %s of machine %s: it is %s, not Ready", what, m.SystemID, m.Status))
}

// Storage lays out a Ready machine's disks.
type Storage interface {
	// Disks lists the machine's physical disks.
	Disks(ctx context.Context, systemID string) ([]lifecycle.Disk, error)
	SetBootDisk(ctx context.Context, systemID string, diskID int) error
	// SetStorageLayout applies a MAAS layout (flat here) rooted on rootDiskID.
	SetStorageLayout(ctx context.Context, systemID, layout string, rootDiskID int) (lifecycle.Machine, error)
}
