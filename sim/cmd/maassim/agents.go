package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

// agents boots deployed machines as separate processes: the machine's
// user-data laid out under dir/<hostname> (its write_files) and the real
// gpuaas-node-agent binary started against that root. A machine deployed
// again gets a fresh root and a fresh agent, as a reinstall would; its
// data drives keep their bytes unless MAAS erased them (erase).
type agents struct {
	bin, dir string
	retry    time.Duration // caps the agents' reconnect backoff when > 0
	log      *slog.Logger
	// provision, when set, lays out a fresh root before cloud-init's files.
	provision func(root string) error

	mu      sync.Mutex
	stopped bool
	procs   map[string]*agentProc // by hostname
}

type agentProc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func newAgents(bin, dir string, retry time.Duration, log *slog.Logger) *agents {
	return &agents{bin: bin, dir: dir, retry: retry, log: log, procs: map[string]*agentProc{}}
}

// boot is the simulator's OnBoot hook.
func (a *agents) boot(b maassim.Boot) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped {
		return
	}
	if p := a.procs[b.Hostname]; p != nil {
		p.stop()
		delete(a.procs, b.Hostname)
	}
	p, err := a.start(b)
	if err != nil {
		a.log.Error("boot failed", "hostname", b.Hostname, "system_id", b.SystemID, "err", err)
		return
	}
	a.procs[b.Hostname] = p
	a.log.Info("booted", "hostname", b.Hostname, "system_id", b.SystemID, "pid", p.cmd.Process.Pid)
}

func (a *agents) start(b maassim.Boot) (*agentProc, error) {
	data := b.UserData
	if data == nil {
		data = []byte(b.RawUserData)
	}
	root := filepath.Join(a.dir, b.Hostname)
	if err := simhost.Reinstall(root); err != nil { // the data drives stay
		return nil, err
	}
	if a.provision != nil {
		if err := a.provision(root); err != nil {
			return nil, err
		}
	}
	if err := simhost.Apply(root, data); err != nil {
		return nil, err
	}
	cfg := filepath.Join(root, "etc/gpuaas-node-agent/config.yaml")
	if err := a.tune(cfg); err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(root+".log", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(a.bin, "--root", root, "--config", cfg,
		"--state-dir", filepath.Join(root, "var/lib/gpuaas-node-agent"))
	cmd.Stdout, cmd.Stderr, cmd.SysProcAttr = logf, logf, agentAttr()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	p := &agentProc{cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(p.done) }()
	return p, nil
}

// tune caps the reconnect backoff in the agent's config, so that agents
// find a restarted daemon quickly.
func (a *agents) tune(path string) error {
	if a.retry <= 0 {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("agent config: %w", err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("agent config: %w", err)
	}
	m["retry_initial"], m["retry_max"] = (a.retry / 10).String(), a.retry.String()
	out, err := yaml.Marshal(m)
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o600)
}

// stopAll stops every agent and boots no more.
func (a *agents) stopAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stopped = true
	for _, p := range a.procs {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, p := range a.procs {
		p.stop()
	}
}

// stop sends SIGTERM, and SIGKILL after five seconds.
func (p *agentProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// erase is the simulator's OnErase hook: the host's drives are wiped as
// wipe-disks' method does.
func (a *agents) erase(e maassim.Erased) {
	if err := fakehost.MaasErase(filepath.Join(a.dir, e.Hostname), e.Method); err != nil {
		a.log.Error("disk erase failed", "hostname", e.Hostname, "err", err)
	}
}
