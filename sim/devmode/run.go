package devmode

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

// drainTimeout bounds how long the simulator's HTTP server waits for the
// requests in flight when the site stops; then it closes every connection
// (a client's connection that never sent a request would otherwise hold
// Shutdown for 5 s).
const drainTimeout = time.Second

// Run serves the simulator, drives its clock and boots every machine MAAS
// deploys as a simulated host running the real agent, under
// <state-dir>/hosts/<hostname>, until ctx ends. It returns once the
// simulator, its HTTP server and every host's agent have stopped and the
// region database (StartRegionDB) is removed.
func (s *Site) Run(ctx context.Context) error {
	var hosts sync.WaitGroup
	s.Sim.OnBoot(func(b maassim.Boot) { s.boot(ctx, b, &hosts) })
	s.Sim.OnErase(func(e maassim.Erased) { s.erase(ctx, e) })
	srv := &http.Server{Handler: fakehost.Routes(s.up.withRoot, s.Sim), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(s.ln) }()
	// Sim.Run returns after ctx ends and its OnBoot hooks have returned;
	// a deployment ending later boots nothing, so hosts is complete.
	err := s.Sim.Run(ctx)
	dctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if srv.Shutdown(dctx) != nil {
		err = errors.Join(err, srv.Close())
	}
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	hosts.Wait()
	return errors.Join(err, s.closeDB())
}

// boot starts one simulated host on a fresh OS disk, clean as a fresh
// install is (the onboarding acceptance checks it; a tenancy's residue
// comes later, Demo's tenancy); its data drives
// (simhost.Reinstall) keep their bytes across a redeploy, as real ones do, so
// only an erase clears them. hosts waits for its agent.
func (s *Site) boot(ctx context.Context, b maassim.Boot, hosts *sync.WaitGroup) {
	log := s.log.With("host", b.Hostname)
	root := filepath.Join(s.dir, b.Hostname)
	s.up.set(b.Hostname, false)
	if err := simhost.Reinstall(root); err != nil {
		log.Error("simulated host did not boot", "err", err)
		return
	}
	h, err := simhost.Boot(ctx, root, b.UserData, simhost.Options{PollTimeout: 20 * time.Second,
		RetryInitial: 200 * time.Millisecond, RetryMax: 5 * time.Second, Logger: s.log.With("component", "agent", "host", b.Hostname),
		ToolsDir: toolsDir()})
	if err != nil {
		log.Error("simulated host did not boot", "err", err)
		return
	}
	log.Info("simulated host booted; its agent is starting", "root", root)
	s.up.set(b.Hostname, true)
	hosts.Go(func() {
		if err := h.Wait(); err != nil && ctx.Err() == nil {
			log.Error("simulated host's agent stopped", "err", err)
		}
	})
}

// toolsDir is where dev mode looks for the simulated hosts' fake tools
// (fakehost, fakegpu): beside the daemon's binary, where make build puts
// them. The daemon never links them.
func toolsDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Dir(exe)
}
