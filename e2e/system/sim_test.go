//go:build e2e

package system

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// apiKey is the simulated region's admin key.
const apiKey = "e2eck:e2etk:e2ets"

// sim is the MAAS simulator as a process, booting deployed machines as
// real agent processes under bootDir.
type sim struct {
	t       testing.TB
	proc    *proc
	url     string // http://host:port/MAAS/
	base    string // http://host:port
	reqLog  string
	bootDir string
	// machines are the seeded machines by hostname.
	machines map[string]machine
}

// machine is one seeded machine as the simulator announced it.
type machine struct {
	hostname, systemID, bmc string
	boss                    bool
}

// simOptions size the simulated region.
type simOptions struct {
	machines, noBossEvery int
	// arm64Every makes every Nth machine arm64/generic (a Grace host),
	// deployed with the arm64 agent package (0: all amd64).
	arm64Every int
	speed      float64
	// gpus (e.g. "nvidia:8"; "none" when empty) is the GPU inventory of
	// every booted machine's provisioned root; the fake host tools
	// (systemctl, userdel, kill, umount, ...) are always on its PATH
	// (maassim --fake-tools-dir), as a real host has them.
	gpus string
	// postgres, when set, is the DSN the simulator mirrors its machines
	// into (a region database with MAAS's notify triggers).
	postgres string
}

func startSim(t testing.TB, o simOptions) *sim {
	t.Helper()
	dir := t.TempDir()
	s := &sim{t: t, reqLog: filepath.Join(dir, "requests.jsonl"), bootDir: filepath.Join(dir, "hosts")}
	args := []string{"--listen", "127.0.0.1:0", "--api-key", apiKey,
		"--machines", fmt.Sprint(o.machines), "--no-boss-every", fmt.Sprint(o.noBossEvery), "--arm64-every", fmt.Sprint(o.arm64Every),
		"--speed", fmt.Sprint(o.speed), "--seed", "7", "--request-log", s.reqLog,
		"--boot-agent", bins.agent, "--boot-dir", s.bootDir, "--boot-agent-retry", "500ms"}
	gpus := o.gpus
	if gpus == "" {
		gpus = "nvidia:8" // what the worlds' SKU, h100.80g.8gpu, has: onboarding checks it
	}
	args = append(args, "--fake-tools-dir", bins.dir, "--gpus", gpus)
	if o.postgres != "" {
		args = append(args, "--postgres", o.postgres)
	}
	s.proc = startProc(t, "maassim", nil, bins.maassim, args...)
	s.url = strings.TrimPrefix(s.proc.waitLine(30*time.Second, "MAAS_URL="), "MAAS_URL=")
	s.base = strings.TrimSuffix(s.url, "/MAAS/")
	s.machines = parseMachines(s.proc.out.String())
	if len(s.machines) != o.machines {
		t.Fatalf("the simulator announced %d machines, want %d", len(s.machines), o.machines)
	}
	t.Cleanup(func() {
		if t.Failed() {
			s.dumpAgents()
		}
	})
	return s
}

// control posts to a /_sim/ route and fails the test unless it answers 2xx.
func (s *sim) control(path string, body any) {
	s.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(s.base+"/_sim/"+path, "application/json", bytes.NewReader(b))
	if err != nil {
		s.t.Fatalf("simulator %s: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var msg bytes.Buffer
		_, _ = msg.ReadFrom(resp.Body)
		s.t.Fatalf("simulator %s: %s %s", path, resp.Status, msg.String())
	}
}

// request is one line of the simulator's request log.
type request struct {
	Time             time.Time
	Method, Path, Op string
	Status           int
	UserAgent        string `json:"user_agent"`
}

// requests reads the request log.
func (s *sim) requests() []request {
	s.t.Helper()
	f, err := os.Open(s.reqLog)
	if err != nil {
		s.t.Fatalf("request log: %v", err)
	}
	defer f.Close()
	var out []request
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			s.t.Fatalf("request log line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// effects counts the accepted side-effect calls (POST with an op that
// changes the machine) per machine system id and op.
func (s *sim) effects() map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, r := range s.requests() {
		sid, ok := machinePath(r.Path)
		if !ok || r.Method != http.MethodPost || r.Status/100 != 2 || !sideEffects[r.Op] {
			continue
		}
		if out[sid] == nil {
			out[sid] = map[string]int{}
		}
		out[sid][r.Op]++
	}
	return out
}

// sideEffects are the machine ops whose duplication the tests forbid.
var sideEffects = map[string]bool{"deploy": true, "release": true, "abort": true, "commission": true,
	"power_on": true, "power_off": true, "power_cycle": true}

// machinePath returns the system id of /MAAS/api/2.0/machines/<sid>/.
func machinePath(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "/MAAS/api/2.0/machines/")
	sid := strings.TrimSuffix(rest, "/")
	return sid, ok && sid != "" && !strings.Contains(sid, "/")
}

// dumpAgents logs the tail of every booted agent's output.
func (s *sim) dumpAgents() {
	logs, _ := filepath.Glob(filepath.Join(s.bootDir, "*.log"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		s.t.Logf("---- agent %s ----\n%s", filepath.Base(l), tail(string(b), 3000))
	}
}

// parseMachines reads the simulator's MACHINE lines.
func parseMachines(out string) map[string]machine {
	ms := map[string]machine{}
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(line, "MACHINE ")
		if !ok {
			continue
		}
		kv := map[string]string{}
		for _, f := range strings.Fields(rest) {
			k, v, _ := strings.Cut(f, "=")
			kv[k] = v
		}
		ms[kv["hostname"]] = machine{hostname: kv["hostname"], systemID: kv["system_id"], bmc: kv["power_address"],
			boss: kv["boss"] == "true"}
	}
	return ms
}

// enrolled reports whether the host's agent process logged its enrollment.
func (s *sim) enrolled(host string) bool {
	b, err := os.ReadFile(filepath.Join(s.bootDir, host+".log"))
	return err == nil && bytes.Contains(b, []byte("enrolled"))
}
