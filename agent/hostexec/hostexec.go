// Package hostexec is the agent's task.Exec: it resolves a command name on
// the host's PATH under the host root and runs it directly (no shell),
// with a fixed environment (LC_ALL=C, so tool output parses the same on
// every host) and bounded output. Under a host root other than "/", only
// executables inside that root can run: a simulated host never reaches
// the real machine's userdel or nvidia-smi. Its fake for tests is
// hostexec/fakeexec.
package hostexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
)

// SearchPath is the host PATH commands are looked up on, in order.
var SearchPath = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// RootEnv names the environment variable that tells a command the host
// root it runs under (fake vendor tools read their state there).
const RootEnv = "GPUAAS_HOST_ROOT"

// maxOutput bounds each of stdout and stderr.
const maxOutput = 4 << 20

// Runner is a task.Exec on the host under Root.
type Runner struct {
	Root hostroot.Root
}

var _ task.Exec = Runner{}

// Look returns the host path of name under the root, or ErrNotFound.
func (r Runner) Look(name string) (string, error) {
	for _, dir := range SearchPath {
		p := r.Root.Path(dir + "/" + name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", name, task.ErrNotFound)
}

// Exec implements task.Exec.
func (r Runner) Exec(ctx context.Context, name string, args ...string) ([]byte, error) {
	path, err := r.Look(name)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", RootEnv + "=" + r.Root.Path("/")}
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return stdout.Bytes(), nil
	case ctx.Err() != nil:
		return stdout.Bytes(), fmt.Errorf("%s: %w", name, ctx.Err())
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return stdout.Bytes(), &task.ExitError{Name: name, Code: ee.ExitCode(), Stderr: stderr.Bytes()}
	}
	return stdout.Bytes(), fmt.Errorf("%s: %w", name, err)
}

// capped is a buffer that keeps the first maxOutput bytes.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
