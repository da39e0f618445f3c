package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

func main() {
	c := parseFlags(os.Args[1:])
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "maassim")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := run(ctx, c, log); err != nil {
		fmt.Fprintln(os.Stderr, "maassim:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config, log *slog.Logger) error {
	if err := c.validate(); err != nil {
		return err
	}
	sim, err := maassim.New(maassim.Options{APIKey: c.apiKey, Speed: c.speed, Seed: c.seed, Logger: log,
		CustomImages: []string{c.images}, Durations: c.durations()})
	if err != nil {
		return err
	}
	holds, _ := parseHolds(c.hold) // validated above
	applyHolds(sim, holds)
	if err := seed(sim, c, os.Stdout); err != nil {
		return err
	}
	if c.postgres != "" {
		mctx, cancel := context.WithCancel(ctx)
		m, err := sim.MirrorPostgres(mctx, c.postgres, maassim.MirrorOptions{})
		if err != nil {
			cancel()
			return fmt.Errorf("--postgres: %w", err)
		}
		defer func() { cancel(); <-m.Done() }()
	}
	if c.webhookURL != "" {
		sim.SetWebhooks([]maassim.WebhookTarget{{URL: c.webhookURL, Secret: c.webhookSecret}}, maassim.WebhookFaults{})
	}
	var h http.Handler = sim
	if c.requestLog != "" {
		l, err := openRequestLog(c.requestLog)
		if err != nil {
			return err
		}
		defer l.close()
		h = l.wrap(sim)
	}
	if c.bootAgent != "" {
		a := newAgents(c.bootAgent, c.bootDir, c.agentRetry, log)
		// A host without the fake tools still has a fresh install's
		// accounts and mounts, which the onboarding acceptance reads.
		a.provision = func(root string) error { return fakehost.Provision(root, fakehost.Spec{}) }
		if c.fakeTools != "" {
			gpus, _ := fakehost.ParseGPUs(c.gpus) // validated above
			a.provision = func(root string) error {
				return fakehost.Provision(root, fakehost.Spec{ToolsDir: c.fakeTools, GPUs: gpus})
			}
			h = hostRoutes(a, h)
		}
		sim.OnBoot(a.boot)
		sim.OnErase(a.erase)
		defer a.stopAll()
	}
	return serve(ctx, c, sim, h)
}

// seed racks the Ready machines (every noBossEvery-th one without a BOSS
// disk, every arm64Every-th one arm64), printing one MACHINE line each to
// out, and the unenlisted hosts.
func seed(sim *maassim.Sim, c config, out io.Writer) error {
	for i := 0; i < c.machines; i++ {
		host, bmc := fmt.Sprintf("gpu-%03d", i+1), fmt.Sprintf("10.15.%d.%d", i/250, i%250+1)
		noBOSS := c.noBossEvery > 0 && i%c.noBossEvery == c.noBossEvery-1
		arch := maassim.DefaultArch
		if c.arm64Every > 0 && i%c.arm64Every == c.arm64Every-1 {
			arch = "arm64/generic"
		}
		sid, err := sim.AddMachine(maassim.HostSpec{PowerAddress: bmc, NoBOSS: noBOSS, Arch: arch}, host, maassim.StatusReady)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "MACHINE hostname=%s system_id=%s power_address=%s boss=%t arch=%s\n", host, sid, bmc, !noBOSS, arch)
	}
	for i := 0; i < c.hosts; i++ {
		sim.AddHost(maassim.HostSpec{PowerAddress: fmt.Sprintf("10.14.0.%d", i+1)})
	}
	return nil
}

func serve(ctx context.Context, c config, sim *maassim.Sim, h http.Handler) error {
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("MAAS_URL=http://%s/MAAS/\nMAAS_API_KEY=%s\n", ln.Addr(), c.apiKey)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _ = sim.Run(runCtx) }()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	return srv.Shutdown(shutdown)
}
