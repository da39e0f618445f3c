//go:build dqlite

package dqlite_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// childEnv asks the test binary to run as the second cluster's process.
const childEnv = "DQLITE_SOCKET_CHILD_DIR"

// TestTwoClustersOnOneHost: two processes on one host each form a TLS
// cluster at once (two daemons of different clusters, a store command
// beside a running test cluster). The first node of every cluster has
// the same fixed id; both must start, each with its engine socket of its
// own.
func TestTwoClustersOnOneHost(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestSocketChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	lines, ready := bufio.NewScanner(out), make(chan string, 1)
	go func() {
		var all strings.Builder
		for lines.Scan() {
			all.WriteString(lines.Text() + "\n")
			if strings.Contains(lines.Text(), "CHILD READY") {
				ready <- ""
			}
		}
		ready <- all.String()
	}()
	select {
	case log := <-ready:
		if log != "" {
			t.Fatalf("the other process's cluster did not start:\n%s", log)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the other process's cluster did not start within 30 s")
	}
	ca := newCA(t, "parent")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	n, err := dqlite.StartNode(ctx, t.TempDir(), dqlite.Options{Address: freeport.Addr(t), TLS: ca.nodeTLS(t)})
	if err != nil {
		t.Fatalf("a TLS cluster beside another process's: %v", err)
	}
	n.Close()
}

// TestSocketChild is the other process of TestTwoClustersOnOneHost: it
// forms a TLS cluster, says so, and holds it until its stdin closes.
func TestSocketChild(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestTwoClustersOnOneHost")
	}
	ca := newCA(t, "child")
	n, err := dqlite.StartNode(context.Background(), dir, dqlite.Options{Address: freeport.Addr(t), TLS: ca.nodeTLS(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	os.Stdout.WriteString("CHILD READY\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}
