package main

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// The residue routes write a tenant's residue into a booted machine's
// root and report it back; a machine that has not booted is a 404 and
// other paths reach the simulator.
func TestResidueRoutes(t *testing.T) {
	a := newAgents("agent", t.TempDir(), 0, slog.New(slog.DiscardHandler))
	a.procs["gpu-001"] = &agentProc{}
	if err := fakehost.Provision(filepath.Join(a.dir, "gpu-001"), fakehost.Spec{GPUs: fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	srv := httptest.NewServer(hostRoutes(a, next))
	defer srv.Close()
	report := func() (bool, int) {
		resp, err := http.Get(srv.URL + "/_sim/booted/gpu-001/residue")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Clean bool
			Users []string
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out.Clean, len(out.Users)
	}
	if clean, _ := report(); !clean {
		t.Fatal("a provisioned machine is not clean")
	}
	post := func(path, body string) int {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := post("/_sim/booted/gpu-001/residue", `{"user":"tenant1","process":true,"gpu_memory_mib":4096,"stuck_gpu":true}`); c != 200 {
		t.Fatalf("POST residue: %d", c)
	}
	if clean, users := report(); clean || users != 1 {
		t.Errorf("after the residue: clean %v with %d tenant user(s), want dirty with 1", clean, users)
	}
	for path, want := range map[string]int{"/_sim/booted/gpu-002/residue": 404, "/_sim/booted/gpu-001/residue?x": 200,
		"/MAAS/api/2.0/machines/": http.StatusTeapot} {
		if c := post(path, `{}`); c != want {
			t.Errorf("POST %s: %d, want %d", path, c, want)
		}
	}
}
