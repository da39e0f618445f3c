package drives

import (
	"context"
	"fmt"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// SanitizePoll is how often a running sanitize's log is read.
var SanitizePoll = 5 * time.Second

// Methods reads d's controller (nvme id-ctrl) and returns the secure
// erases it offers for d, best first; an error when it offers none, so
// the drive is reported before anything is written to it.
func Methods(ctx context.Context, env task.Env, d Drive, exclusive bool) ([]string, error) {
	if d.Ctrl == "" {
		return nil, fmt.Errorf("%s is not an NVMe namespace: it has no drive-level erase the agent runs; not erased", d.Label())
	}
	ctrl := "/dev/" + d.Ctrl
	out, err := env.Exec.Exec(ctx, "nvme", "id-ctrl", ctrl, "-o", "json")
	if err != nil {
		return nil, fmt.Errorf("nvme id-ctrl %s: %w", ctrl, err)
	}
	id, err := ParseIDCtrl(out)
	if err != nil {
		return nil, err
	}
	methods := id.Methods(exclusive)
	if len(methods) == 0 {
		return nil, fmt.Errorf("%s offers no secure erase (sanicap=%#x fna=%#x oacs=%#x, controller shared with other namespaces: %v): not erased",
			d.Label(), id.SANICAP, id.FNA, id.OACS, !exclusive)
	}
	return methods, nil
}

// Erase runs the methods in order until one works, and returns it and
// those tried before it ("name: why"); err when none worked. It never
// overwrites the drive itself.
func Erase(ctx context.Context, env task.Env, d Drive, methods []string) (string, []string, error) {
	var tried []string
	for _, m := range methods {
		err := run(ctx, env, m, "/dev/"+d.Ctrl, d.Path())
		if err == nil {
			return m, tried, nil
		}
		tried = append(tried, m+": "+err.Error())
	}
	return "", tried, fmt.Errorf("%s: every secure erase it offers failed", d.Label())
}

func run(ctx context.Context, env task.Env, m, ctrl, ns string) error {
	if _, err := env.Exec.Exec(ctx, "nvme", Args(m, ctrl, ns)...); err != nil {
		return err
	}
	if m == FormatCrypto || m == FormatUserData {
		return nil // a format returns when it is done
	}
	for {
		out, err := env.Exec.Exec(ctx, "nvme", "sanitize-log", ctrl, "-o", "json")
		if err != nil {
			return fmt.Errorf("sanitize-log: %w", err)
		}
		l, err := ParseSanitizeLog(out)
		if err != nil {
			return err
		}
		switch {
		case l.Status == SanitizeFailed:
			return fmt.Errorf("sanitize-log: the sanitize failed")
		case (l.Status == SanitizeDone || l.Status == SanitizeDoneNoDeal) && l.Progress == 0xffff:
			return nil
		}
		if err := env.Wait(ctx, SanitizePoll); err != nil {
			return fmt.Errorf("sanitize still running (%d/65536): %w", l.Progress, err)
		}
	}
}
