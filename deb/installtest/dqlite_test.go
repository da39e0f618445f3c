//go:build integration

package installtest

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// dqliteState is the state directory of the one-member dqlite store,
// beside the packaged one so that the bbolt state stays as it was.
const dqliteState = "/var/lib/maas-sidecar-dqlite"

// serveOnDqlite starts the installed daemon as its packaged user on a
// one-member dqlite store (its own config and state directory) until
// /readyz answers, checks that the store is dqlite's (a member data
// directory, no bbolt file), and removes the directory.
func (r *root) serveOnDqlite() {
	r.t.Helper()
	u, _ := r.user(sidecarUser)
	if err := os.Mkdir(r.path(dqliteState), 0o700); err != nil {
		r.t.Fatal(err)
	}
	admin, agent, raft := freeport.Addr(r.t), freeport.Addr(r.t), freeport.Addr(r.t)
	config := dqliteState + "/config.yaml"
	r.write(config, fmt.Sprintf("admin_listen: %s\nagent:\n  listen: %s\nstore:\n  backend: dqlite\n  dqlite:\n    address: %s\n",
		admin, agent, raft), 0o600)
	for _, p := range []string{dqliteState, config} {
		if err := os.Chown(r.path(p), u.uid, u.gid); err != nil {
			r.t.Fatal(err)
		}
	}
	r.serveReady(admin, config, dqliteState)
	if m, _ := filepath.Glob(r.path(dqliteState + "/dqlite/*")); len(m) == 0 {
		r.t.Errorf("no dqlite member data under %s/dqlite after the daemon was ready", dqliteState)
	}
	if r.exists(dqliteState + "/maas-sidecar.db") {
		r.t.Errorf("the daemon on store.backend dqlite wrote a bbolt file in %s", dqliteState)
	}
	if err := os.RemoveAll(r.path(dqliteState)); err != nil {
		r.t.Fatal(err)
	}
}
