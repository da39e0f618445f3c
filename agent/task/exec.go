package task

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Exec runs a host command, node_exporter style: the name is resolved on
// the host's PATH under the agent's host root, never through a shell. It
// returns stdout; a command that ran and exited non-zero returns its
// stdout with an *ExitError, a command that is not installed an error
// wrapping ErrNotFound.
type Exec interface {
	Exec(ctx context.Context, name string, args ...string) ([]byte, error)
}

// ErrNotFound means the command is not installed on the host.
var ErrNotFound = errors.New("command not found")

// ExitError is a command that ran and exited with a non-zero code.
type ExitError struct {
	Name   string
	Code   int
	Stderr []byte
}

func (e *ExitError) Error() string {
	msg := strings.TrimSpace(string(e.Stderr))
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	if msg == "" {
		return fmt.Sprintf("%s: exit status %d", e.Name, e.Code)
	}
	return fmt.Sprintf("%s: exit status %d: %s", e.Name, e.Code, msg)
}

// ExitCode returns err's exit code, -1 when err is not an *ExitError
// (not found, killed by the context) and 0 for nil.
func ExitCode(err error) int {
	var ee *ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	}
	return -1
}
