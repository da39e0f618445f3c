package pgcluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// Start starts the (stopped) cluster on its port and waits until it
// accepts connections.
func (c *Cluster) Start() error {
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60",
		c.port, c.dir)
	cmd := c.own.command(c.dir, c.pgctl, "start", "-w", "-t", "60", "-D", c.data, "-l", filepath.Join(c.dir, "log"), "-o", opts)
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, log)
	}
	return nil
}

// Stop stops the cluster (fast mode: clients are disconnected).
func (c *Cluster) Stop() error { return c.stop("fast") }

func (c *Cluster) stop(mode string) error {
	cmd := c.own.command(c.dir, c.pgctl, "stop", "-w", "-t", "60", "-m", mode, "-D", c.data)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl stop: %v: %s", err, out)
	}
	return nil
}

// Restart stops and starts the cluster on the same port.
func (c *Cluster) Restart() error {
	if err := c.Stop(); err != nil {
		return err
	}
	return c.Start()
}

// Remove stops the cluster at once and deletes its files.
func (c *Cluster) Remove() error {
	err := c.stop("immediate")
	if rerr := os.RemoveAll(c.dir); rerr != nil {
		return rerr
	}
	return err
}
