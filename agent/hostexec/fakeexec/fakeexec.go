// Package fakeexec is a scripted task.Exec for tests: each command name
// maps to a function that answers its arguments, every call is recorded,
// and a name with no script is not installed (task.ErrNotFound).
package fakeexec

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Func answers one invocation: stdout, and nil or an error such as
// Exit(code, stderr).
type Func func(args []string) ([]byte, error)

// Runner is the scripted runner. The zero value has no commands.
type Runner struct {
	mu     sync.Mutex
	script map[string]Func
	calls  []string
}

// New returns a runner answering the given commands.
func New(script map[string]Func) *Runner {
	r := &Runner{script: map[string]Func{}}
	for k, v := range script {
		r.script[k] = v
	}
	return r
}

// Set adds or replaces the script of name.
func (r *Runner) Set(name string, f Func) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.script == nil {
		r.script = map[string]Func{}
	}
	r.script[name] = f
}

// Unset removes name: it is no longer installed.
func (r *Runner) Unset(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.script, name)
}

// Exec implements task.Exec.
func (r *Runner) Exec(ctx context.Context, name string, args ...string) ([]byte, error) {
	r.mu.Lock()
	r.calls = append(r.calls, strings.Join(append([]string{name}, args...), " "))
	f, ok := r.script[name]
	r.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, task.ErrNotFound)
	}
	return f(args)
}

// Calls returns every invocation so far, as "name arg arg".
func (r *Runner) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// CallsOf returns the invocations of name.
func (r *Runner) CallsOf(name string) []string {
	var out []string
	for _, c := range r.Calls() {
		if c == name || strings.HasPrefix(c, name+" ") {
			out = append(out, c)
		}
	}
	return out
}

// Exit returns an exit error as a command exiting code would.
func Exit(name string, code int, stderr string) error {
	return &task.ExitError{Name: name, Code: code, Stderr: []byte(stderr)}
}

// Output answers every invocation with out and exit 0.
func Output(out string) Func {
	return func([]string) ([]byte, error) { return []byte(out), nil }
}
