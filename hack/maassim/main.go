package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/maas/maassim"
)

type config struct {
	listen, apiKey, webhookURL, webhookSecret string
	machines, hosts                           int
	speed                                     float64
	seed                                      uint64
	images                                    string
}

func main() {
	var c config
	fs := flag.NewFlagSet("maassim", flag.ExitOnError)
	fs.StringVar(&c.listen, "listen", "127.0.0.1:5240", "address to serve on")
	fs.IntVar(&c.machines, "machines", 20, "Ready machines to seed")
	fs.IntVar(&c.hosts, "hosts", 0, "unenlisted hosts (BMCs at 10.14.0.x) waiting for a PXE boot")
	fs.StringVar(&c.apiKey, "api-key", "", "admin API key consumer_key:token_key:token_secret (required)")
	fs.Float64Var(&c.speed, "speed", 60, "divide every MAAS duration by this factor")
	fs.StringVar(&c.webhookURL, "webhook-url", "", "POST change hints here")
	fs.StringVar(&c.webhookSecret, "webhook-secret", "", "HMAC secret of the hints")
	fs.Uint64Var(&c.seed, "seed", 1, "random seed")
	fs.StringVar(&c.images, "custom-image", "gpuaas-ubuntu-2204", "custom image deployable as custom/<name>")
	_ = fs.Parse(os.Args[1:])
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "maassim")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := run(ctx, c, log); err != nil {
		fmt.Fprintln(os.Stderr, "maassim:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config, log *slog.Logger) error {
	if c.apiKey == "" {
		return errors.New("--api-key is required")
	}
	if c.webhookURL != "" && c.webhookSecret == "" {
		return errors.New("--webhook-secret is required with --webhook-url")
	}
	sim, err := maassim.New(maassim.Options{APIKey: c.apiKey, Speed: c.speed, Seed: c.seed, Logger: log,
		CustomImages: []string{c.images}})
	if err != nil {
		return err
	}
	for i := 0; i < c.machines; i++ {
		if _, err := sim.AddMachine(maassim.HostSpec{NoBOSS: i%10 == 9}, fmt.Sprintf("gpu-%03d", i+1), maassim.StatusReady); err != nil {
			return err
		}
	}
	for i := 0; i < c.hosts; i++ {
		sim.AddHost(maassim.HostSpec{PowerAddress: fmt.Sprintf("10.14.0.%d", i+1)})
	}
	if c.webhookURL != "" {
		sim.SetWebhooks([]maassim.WebhookTarget{{URL: c.webhookURL, Secret: c.webhookSecret}}, maassim.WebhookFaults{})
	}
	return serve(ctx, c, sim)
}

func serve(ctx context.Context, c config, sim *maassim.Sim) error {
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 10 * time.Second}
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
