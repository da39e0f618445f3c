package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// Env is what the command line runs with; tests pass their own.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	HTTP           *http.Client
	// StateDir is where admin.token is looked for last (the daemon's).
	StateDir string
	// Root is the host root that host files (a MAAS region's regiond.conf)
	// are read under; "" is "/".
	Root string
	// Interval is how often watch polls (2s); Sleep waits (on Clock, the
	// real clock when nil).
	Interval time.Duration
	Sleep    func(ctx context.Context, d time.Duration) error
	Clock    clockwork.Clock
}

// command runs one verb with its arguments (after the verb words).
type command func(ctx context.Context, s *session, args []string) error

// commands are the verbs, by their words.
var commands = map[string]command{
	"site create": siteCreate, "site list": siteList, "site get": siteGet, "site update": siteUpdate,
	"site enable": siteStatus("active"), "site disable": siteStatus("disabled"), "site delete": siteDelete,
	"site probe": siteProbe, "site credentials": siteCredentials,
	"policy get": policyGet, "policy set": policySet,
	"override create": overrideCreate, "override list": overrideList, "override delete": overrideDelete,
	"roce import": roceImport, "roce list": roceList, "roce delete": roceDelete,
	"onboard": onboard, "onboarding batches": onboardingBatches,
	"node list": nodeList, "node get": nodeGet, "node activate": nodeActivate, "node inventory": nodeInventory,
	"node health": nodeHealth, "node fault": nodeFault,
	"token create": tokenCreate, "token list": tokenList, "token revoke": tokenRevoke,
	"audit": auditList,
}

// Verbs are the first words of the commands, for the daemon's dispatcher.
func Verbs() []string {
	seen := map[string]bool{}
	for k := range commands {
		seen[strings.Fields(k)[0]] = true
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// Main runs one command line (starting with the verb) and returns the exit code.
func Main(ctx context.Context, args []string, env Env) int {
	env = env.withDefaults()
	cmd, rest, name := lookup(args)
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "maas-sidecar: unknown command %q\n%s", strings.Join(args, " "), Usage())
		return ExitUsage
	}
	s := &session{env: env, name: name}
	err := cmd(ctx, s, rest)
	if err != nil {
		fmt.Fprintf(env.Stderr, "maas-sidecar %s: %v\n", name, err)
	}
	return exitCode(err)
}

func lookup(args []string) (command, []string, string) {
	for n := 2; n >= 1; n-- {
		if len(args) >= n {
			name := strings.Join(args[:n], " ")
			if c, ok := commands[name]; ok {
				return c, args[n:], name
			}
		}
	}
	return nil, nil, ""
}

// Usage lists the operator commands.
func Usage() string {
	names := make([]string, 0, len(commands))
	for k := range commands {
		names = append(names, k)
	}
	sort.Strings(names)
	return "operator commands (add -h for flags):\n  " + strings.Join(names, "\n  ") + "\n"
}

func (e Env) withDefaults() Env {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	if e.HTTP == nil {
		e.HTTP = &http.Client{Timeout: 60 * time.Second}
	}
	if e.Interval == 0 {
		e.Interval = 2 * time.Second
	}
	if e.Clock == nil {
		e.Clock = clockwork.NewRealClock()
	}
	if e.Sleep == nil {
		clock := e.Clock
		e.Sleep = func(ctx context.Context, d time.Duration) error {
			if !clocks.Sleep(ctx, clock, d) {
				return ctx.Err()
			}
			return nil
		}
	}
	if e.Stdin == nil {
		e.Stdin = strings.NewReader("")
	}
	return e
}
