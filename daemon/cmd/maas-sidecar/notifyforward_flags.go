package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/daemon/notifyfwd"
)

// forwardFlags are maas-notify-forward's command line, checked.
type forwardFlags struct {
	cfg           notifyfwd.Config
	logLevel      string
	metricsListen string // host:port of the Prometheus listener; "" for none
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

var siteIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

const forwardUsage = "usage: maas-sidecar maas-notify-forward --site ID --url URL --secret-file FILE\n" +
	"         (--dsn DSN --password-file FILE | [--regiond-conf FILE]...) [flags]\n" +
	"The daemon's webhook route is on its admin listener (plain HTTP, 127.0.0.1 by default):\n" +
	"give --url of the TLS-terminating proxy in front of it (--ca-file for its certificate),\n" +
	"or http:// to an admin_listen bound on a trusted network."

func parseForward(args []string, stderr io.Writer) (forwardFlags, error) {
	fs := flag.NewFlagSet("maas-sidecar maas-notify-forward", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	site := fs.String("site", "", "the daemon's site `id` of this region (sent as ?site_id=)")
	target := fs.String("url", "", "the daemon's webhook endpoint `URL`, e.g. https://proxy.example/api/v1/webhooks/maas")
	secret := fs.String("secret-file", "", "`file` holding the site's webhook HMAC secret (re-read for every POST)")
	dsn := fs.String("dsn", "", "region database `URL` without a password: postgres://USER@HOST:5432/maasdb?sslmode=...")
	pwFile := fs.String("password-file", "", "with --dsn: `file` holding the database role's password (re-read at each connect)")
	var regiond listFlag
	fs.Var(&regiond, "regiond-conf", "MAAS regiond.conf `file` to read the database from, tried in order (repeatable; default "+
		strings.Join(pgnotify.RegiondConfPaths, ", then ")+")")
	caFile := fs.String("ca-file", "", "CA bundle `file` that signs the certificate of the https --url (the proxy in front of the daemon)")
	debounce := fs.Duration("debounce", 200*time.Millisecond, "gather a machine's notifications for this `duration` into one webhook")
	health := fs.Duration("health", 15*time.Second, "check an idle database connection at this `interval`")
	timeout := fs.Duration("timeout", 10*time.Second, "give up on one POST after this `duration` (it is retried)")
	maxPending := fs.Int("max-pending", notifyfwd.DefaultMaxPending, "debounce at most this `number` of machines, and queue as many; more are dropped")
	maxBatch := fs.Int("max-batch", notifyfwd.DefaultMaxBatch, fmt.Sprintf("send up to this `number` of waiting hints in one signed POST "+
		"(1 to %d; 1 sends one hint per POST, for a daemon older than batch webhooks)", feed.MaxHintsPerPost))
	metrics := fs.String("metrics-listen", "", "serve Prometheus /metrics on this `host:port` (none by default)")
	level := fs.String("log-level", "info", "log `level`: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, forwardUsage)
			fs.PrintDefaults()
			return forwardFlags{}, err
		}
		return forwardFlags{}, usageError(err.Error() + " (see maas-sidecar maas-notify-forward -h)")
	}
	if fs.NArg() > 0 {
		return forwardFlags{}, usageError(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	f := forwardFlags{logLevel: *level, metricsListen: *metrics,
		cfg: notifyfwd.Config{Site: *site, URL: *target, Debounce: *debounce, Health: *health, MaxPending: *maxPending,
			MaxBatch: *maxBatch}}
	checks := []func() error{
		func() error { return checkSite(*site) },
		func() error { return checkMaxBatch(*maxBatch) },
		func() error { return checkURL(*target) },
		func() error { return checkSecret(*secret, &f.cfg) },
		func() error { return checkSource(*dsn, *pwFile, regiond, &f.cfg) },
		func() error { return checkDurations(*debounce, *health, *timeout) },
		func() error { return checkLimits(*maxPending, *metrics) },
		func() error { _, err := config.ParseLevel(*level); return wrapUsage("--log-level", err) },
		func() error { return checkClient(*caFile, *timeout, &f.cfg) },
	}
	for _, c := range checks {
		if err := c(); err != nil {
			return forwardFlags{}, err
		}
	}
	return f, nil
}

func wrapUsage(flag string, err error) error {
	if err == nil {
		return nil
	}
	return usageError(flag + ": " + err.Error())
}

func checkSite(site string) error {
	if !siteIDPattern.MatchString(site) {
		return usageError(fmt.Sprintf("--site %q: give the site id, 1-64 of [A-Za-z0-9_-]", site))
	}
	return nil
}

func checkMaxBatch(n int) error {
	if n < 1 || n > feed.MaxHintsPerPost {
		return usageError(fmt.Sprintf("--max-batch %d: give 1 to %d hints per POST", n, feed.MaxHintsPerPost))
	}
	return nil
}

func checkURL(u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.User != nil {
		return usageError(fmt.Sprintf("--url %q: give the daemon's webhook endpoint, e.g. https://proxy.example/api/v1/webhooks/maas", u))
	}
	return nil
}

// checkSecret reads the secret file once now, so a wrong path fails at
// start rather than at the first notification.
func checkSecret(path string, cfg *notifyfwd.Config) error {
	if path == "" {
		return usageError("--secret-file is required: the site's webhook HMAC secret")
	}
	cfg.Secret = notifyfwd.SecretFile(path)
	_, err := cfg.Secret(context.Background())
	return wrapUsage("--secret-file", err)
}
