package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// parseHolds reads --hold: "op=duration" pairs separated by commas, e.g.
// "deploy=30s,erase=30s". Each op's requests act and then hold their answer
// that long (maassim.OpFault.Hold); "erase" is a release that erases.
func parseHolds(v string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	if v == "" {
		return out, nil
	}
	for _, pair := range strings.Split(v, ",") {
		op, dur, ok := strings.Cut(strings.TrimSpace(pair), "=")
		d, err := time.ParseDuration(dur)
		if !ok || op == "" || err != nil || d <= 0 {
			return nil, fmt.Errorf("--hold: %q is not op=duration (e.g. deploy=30s)", pair)
		}
		out[op] = d
	}
	return out, nil
}

// durations are the simulator's timings with the erase flags applied; a
// zero flag keeps the default.
func (c config) durations() maassim.Durations {
	d := maassim.DefaultDurations()
	for _, f := range []struct {
		dst *time.Duration
		v   time.Duration
	}{
		{&d.DiskErasing, c.eraseFull}, {&d.QuickErase, c.eraseQuick}, {&d.SecureErase, c.eraseSecure}} {
		if f.v > 0 {
			*f.dst = f.v
		}
	}
	return d
}

// applyHolds programs the --hold faults.
func applyHolds(sim *maassim.Sim, holds map[string]time.Duration) {
	for op, d := range holds {
		sim.SetOpFault(op, maassim.OpFault{Hold: d})
	}
}
