package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
)

// DefaultAddr is the admin API's default address.
const DefaultAddr = "127.0.0.1:5290"

// session is one command's flags and connection.
type session struct {
	env    Env
	name   string
	fs     *flag.FlagSet
	addr   string
	token  string
	tokenF string
	state  string
	output string
	reason string
	limit  int // --limit of a list command: the page size asked of the API
}

// flags starts the command's flag set with the global flags.
func (s *session) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("maas-sidecar "+s.name, flag.ContinueOnError)
	fs.SetOutput(s.env.Stderr)
	fs.StringVar(&s.addr, "addr", "", "admin API `host:port` or URL (env MAAS_SIDECAR_ADDR; default "+DefaultAddr+")")
	fs.StringVar(&s.token, "token", "", "bearer `token` (env MAAS_SIDECAR_TOKEN; default: admin.token in the state dir)")
	fs.StringVar(&s.tokenF, "token-file", "", "read the bearer token from `file`")
	fs.StringVar(&s.state, "state-dir", s.env.StateDir, "daemon state `dir` holding admin.token")
	fs.StringVar(&s.output, "o", "table", "output: table or json")
	s.fs = fs
	return fs
}

// parse parses flags and positional arguments in any order; want is the
// number of positional arguments required (-1: any).
func (s *session) parse(args []string, want int, names ...string) ([]string, error) {
	var pos []string
	for {
		if err := s.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, usagef("help requested")
			}
			return nil, usageError{err.Error()}
		}
		args = s.fs.Args()
		if len(args) == 0 {
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	if s.output != "table" && s.output != "json" {
		return nil, usagef("-o must be table or json")
	}
	if want >= 0 && len(pos) != want {
		return nil, usagef("want %d argument(s) %s, got %d", want, strings.Join(names, " "), len(pos))
	}
	return pos, nil
}

// client resolves the address and the token: flags, then the
// environment, then the state dir's admin.token.
func (s *session) client() (*adminclient.Client, error) {
	addr := first(s.addr, s.env.Getenv("MAAS_SIDECAR_ADDR"), DefaultAddr)
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	tok := first(s.token, s.env.Getenv("MAAS_SIDECAR_TOKEN"))
	if tok == "" {
		path := s.tokenF
		if path == "" {
			path = filepath.Join(s.state, "admin.token")
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, usagef("no token: give --token, --token-file or MAAS_SIDECAR_TOKEN, or run where %s is readable (%v)", path, err)
		}
		tok = strings.TrimSpace(string(b))
	}
	return &adminclient.Client{Base: strings.TrimRight(addr, "/"), Token: tok, HTTP: s.env.HTTP, Warn: s.env.Stderr}, nil
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// readSecret reads a secret from a file, or stdin for "-"; trailing
// newlines are dropped.
func (s *session) readSecret(path, what string) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(io.LimitReader(s.env.Stdin, 64<<10))
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return "", usagef("reading %s: %v", what, err)
	}
	v := strings.TrimRight(string(b), "\r\n")
	if v == "" {
		return "", usagef("%s is empty", what)
	}
	return v, nil
}

func (s *session) printf(format string, args ...any) { fmt.Fprintf(s.env.Stdout, format, args...) }

// warnf writes a note to stderr, prefixed with "warning: ".
func (s *session) warnf(format string, args ...any) {
	fmt.Fprintf(s.env.Stderr, "warning: "+format, args...)
}
