package pgcluster

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// SuperUser is the cluster's superuser; its password is Cluster.SuperPassword.
const SuperUser = "postgres"

// Cluster is one throwaway cluster.
type Cluster struct {
	dir, data, pgctl string
	port             int
	own              owner
	// SuperPassword is the superuser's password.
	SuperPassword string
}

// Available reports whether the server programs are installed.
func Available() error {
	for _, n := range []string{"initdb", "pg_ctl"} {
		if _, err := tool(n); err != nil {
			return err
		}
	}
	return nil
}

// Create makes a cluster in a new temporary directory and starts it.
// Remove stops it and deletes its files.
func Create(superPassword string) (*Cluster, error) {
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
	dir, err := os.MkdirTemp("", "pgcluster-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, data: filepath.Join(dir, "data"), pgctl: pgctl, own: own, SuperPassword: superPassword}
	if err = c.initdb(initdb); err == nil {
		err = c.startOnFreePort()
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

func (c *Cluster) initdb(initdb string) error {
	pw := filepath.Join(c.dir, "pw")
	if err := os.WriteFile(pw, []byte(c.SuperPassword+"\n"), 0o600); err != nil {
		return err
	}
	for _, p := range []string{c.dir, pw} {
		if err := c.own.chown(p); err != nil {
			return err
		}
	}
	cmd := c.own.command(c.dir, initdb, "-D", c.data, "-U", SuperUser, "--pwfile", pw, "-E", "UTF8", "--no-locale",
		"--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %v: %s", err, out)
	}
	return os.Remove(pw)
}

// Port is the cluster's TCP port on 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// DSN is a postgres URL for user with password (empty: none) on database.
func (c *Cluster) DSN(user, password, database string) string {
	u := url.URL{Scheme: "postgres", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)), Path: "/" + database,
		RawQuery: "sslmode=disable"}
	u.User = url.User(user)
	if password != "" {
		u.User = url.UserPassword(user, password)
	}
	return u.String()
}

// SuperDSN is the superuser's DSN on database.
func (c *Cluster) SuperDSN(database string) string {
	return c.DSN(SuperUser, c.SuperPassword, database)
}

// startOnFreePort picks a free port just before starting, and another
// when something took it in between (parallel tests).
func (c *Cluster) startOnFreePort() error {
	var err error
	for range 3 {
		if c.port, err = freeport.Port(); err != nil {
			return err
		}
		if err = c.Start(); err == nil || !strings.Contains(err.Error(), "already in use") {
			return err
		}
	}
	return err
}
