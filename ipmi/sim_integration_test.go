//go:build integration

package ipmi_test

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/gpuaas/maas-sidecar/ipmi"
)

// simBMC is one ipmi_sim process with a fresh state directory.
type simBMC struct {
	target   ipmi.Target
	chassis  string // directory of the chassis_control state files
	ipmitool string
}

// startSim runs Debian's ipmi_sim on a free loopback port and waits until
// ipmitool gets an answer. A missing ipmi_sim or ipmitool fails the test.
func startSim(t *testing.T) *simBMC {
	t.Helper()
	bin := mustLookPath(t, "ipmi_sim", "openipmi")
	s := &simBMC{ipmitool: mustLookPath(t, "ipmitool", "ipmitool")}
	dir := t.TempDir()
	s.chassis = filepath.Join(dir, "chassis")
	state := filepath.Join(dir, "state")
	for _, d := range []string{s.chassis, state} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.target = ipmi.Target{Host: "127.0.0.1", Port: freeUDPPort(t), User: "admin", Pass: "sim-pass-3141"}
	lan := writeLanConf(t, dir, s.target)
	cmd := exec.Command(bin, "-c", lan, "-f", testdataPath(t, "sim.emu"), "-s", state, "-n")
	cmd.Env = append(os.Environ(), "CHASSIS_STATE_DIR="+s.chassis)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start ipmi_sim: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("ipmi_sim output:\n%s", out.String())
		}
	})
	s.waitReady(t)
	return s
}

func mustLookPath(t *testing.T, bin, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(bin)
	if err != nil {
		t.Fatalf("%s is required by this integration test: install the Debian package %s (make test-deps)", bin, pkg)
	}
	return p
}

func testdataPath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func freeUDPPort(t *testing.T) int {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

func writeLanConf(t *testing.T, dir string, tg ipmi.Target) string {
	t.Helper()
	tmpl := template.Must(template.ParseFiles(testdataPath(t, "lan.conf.tmpl")))
	var b bytes.Buffer
	data := map[string]any{"Port": tg.Port, "User": tg.User, "Pass": tg.Pass, "Chassis": testdataPath(t, "chassis.sh")}
	if err := tmpl.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "lan.conf")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitReady polls with ipmitool until the simulator answers (at most 5 s).
func (s *simBMC) waitReady(t *testing.T) {
	t.Helper()
	var out []byte
	var err error
	for range 50 {
		cmd := exec.Command(s.ipmitool, "-I", "lanplus", "-C", "3", "-H", s.target.Host,
			"-p", strconv.Itoa(s.target.Port), "-U", s.target.User, "-E", "-N", "1", "-R", "1", "chassis", "power", "status")
		cmd.Env = []string{"IPMITOOL_PASSWORD=" + s.target.Pass}
		if out, err = cmd.CombinedOutput(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("ipmi_sim did not answer: %v: %s", err, out)
}

// file reads one chassis state file ("power", "boot" or "log").
func (s *simBMC) file(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.chassis, name))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
