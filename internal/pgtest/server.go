package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// SuperPassword is the password of the cluster's superuser "postgres".
const SuperPassword = "pgtest-super"

// Server is one running test cluster.
type Server struct {
	dir, data, pgctl string
	port             int
	own              owner
}

// Start creates a cluster and starts it; the test's cleanup stops it and
// removes its files. Any failure fails t.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := start()
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() { s.stop("immediate"); _ = os.RemoveAll(s.dir) })
	return s
}

func start() (*Server, error) {
	initdb, err := tool("initdb")
	if err != nil {
		return nil, err
	}
	pgctl, err := tool("pg_ctl")
	if err != nil {
		return nil, err
	}
	own, err := serverOwner()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, data: filepath.Join(dir, "data"), pgctl: pgctl, own: own}
	if s.port, err = freePort(); err != nil {
		return nil, err
	}
	if err := s.initdb(initdb); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := s.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

func (s *Server) initdb(initdb string) error {
	pw := filepath.Join(s.dir, "pw")
	if err := os.WriteFile(pw, []byte(SuperPassword+"\n"), 0o600); err != nil {
		return err
	}
	for _, p := range []string{s.dir, pw} {
		if err := s.own.chown(p); err != nil {
			return err
		}
	}
	c := s.own.command(initdb, "-D", s.data, "-U", "postgres", "--pwfile", pw, "-E", "UTF8", "--no-locale",
		"--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync")
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %v: %s", err, out)
	}
	return nil
}

// Start starts the (stopped) server and waits until it accepts
// connections.
func (s *Server) Start() error {
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60",
		s.port, s.dir)
	c := s.own.command(s.pgctl, "start", "-w", "-t", "60", "-D", s.data, "-l", filepath.Join(s.dir, "log"), "-o", opts)
	if out, err := c.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, log)
	}
	return nil
}

// Stop stops the server (fast mode: clients are disconnected).
func (s *Server) Stop() error { return s.stop("fast") }

func (s *Server) stop(mode string) error {
	c := s.own.command(s.pgctl, "stop", "-w", "-t", "60", "-m", mode, "-D", s.data)
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl stop: %v: %s", err, out)
	}
	return nil
}

// Restart stops and starts the server on the same port.
func (s *Server) Restart() error {
	if err := s.Stop(); err != nil {
		return err
	}
	return s.Start()
}

// Port is the server's TCP port on 127.0.0.1.
func (s *Server) Port() int { return s.port }

// DSN is a postgres URL for user with password (empty: none) on database.
func (s *Server) DSN(user, password, database string) string {
	u := url.URL{Scheme: "postgres", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)), Path: "/" + database,
		RawQuery: "sslmode=disable"}
	u.User = url.User(user)
	if password != "" {
		u.User = url.UserPassword(user, password)
	}
	return u.String()
}

// SuperDSN is the superuser's DSN on database.
func (s *Server) SuperDSN(database string) string { return s.DSN("postgres", SuperPassword, database) }

// Exec runs statements as the superuser on database ("postgres" when
// empty), failing t on error.
func (s *Server) Exec(t testing.TB, database string, sql ...string) {
	t.Helper()
	if database == "" {
		database = "postgres"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.SuperDSN(database))
	if err != nil {
		t.Fatalf("pgtest: connect %s: %v", database, err)
	}
	defer c.Close(ctx)
	for _, q := range sql {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("pgtest: %s: %v", q, err)
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
