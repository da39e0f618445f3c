package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"golang.org/x/sync/errgroup"
)

// stage is a group of the daemon's long-lived parts that stop together.
type stage int

const (
	// stageHTTP is the admin and agent listeners (and dev mode's demo, a
	// client of the admin API): they stop and drain first, so no request
	// reaches a part that has stopped.
	stageHTTP stage = iota
	// stageCore is the runner, which waits for its executing stages and
	// releases its site leases on the way out, the feed, the reconciler
	// and the watchdog.
	stageCore
	// stageAdapters is the adapters' own loops (Vault's token renewal),
	// the outbox poster and dev mode's simulated site: the outside world
	// outlives the core, and the poster sends what the core's last stages
	// recorded.
	stageAdapters
	numStages
)

var stageNames = [numStages]string{"http", "core", "adapters"}

// parts runs the daemon's long-lived parts and owns their goroutines.
// Stop stops them stage by stage: a stage is told to stop only once every
// part of the stages before it has returned, and the closers (the store)
// run last. The first part to fail closes Failed.
type parts struct {
	ctx    [numStages]context.Context
	cancel [numStages]context.CancelFunc
	group  [numStages]errgroup.Group
	failed chan struct{}
	once   sync.Once
	log    *slog.Logger
}

func newParts(log *slog.Logger) *parts {
	p := &parts{failed: make(chan struct{}), log: log}
	for s := range numStages {
		p.ctx[s], p.cancel[s] = context.WithCancel(context.Background())
	}
	return p
}

// Go runs part in stage s until Stop reaches that stage.
func (p *parts) Go(s stage, part func(context.Context) error) {
	p.group[s].Go(func() error {
		err := part(p.ctx[s])
		if err != nil {
			p.once.Do(func() { close(p.failed) })
		}
		return err
	})
}

// Failed is closed when a part has returned an error.
func (p *parts) Failed() <-chan struct{} { return p.failed }

// Stop stops the stages in order, waiting for each, then runs closers in
// order. It returns what the parts and the closers returned.
func (p *parts) Stop(closers ...func() error) error {
	var errs []error
	for s := range numStages {
		p.cancel[s]()
		errs = append(errs, p.group[s].Wait())
		p.log.Info("shutdown stage done", "stage", stageNames[s])
	}
	for _, c := range closers {
		errs = append(errs, c())
	}
	return errors.Join(errs...)
}
