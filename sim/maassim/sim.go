package maassim

import (
	"context"
	"strings"
	"sync"
	"time"
)

// Sim is a simulated MAAS region. It is an http.Handler serving /MAAS/...
// and /_sim/...; Run drives its timers and webhook emitter.
type Sim struct {
	opts Options
	key  [3]string // consumer key, token key, token secret
	user [3]string // the non-admin user's key; empty without one

	mu       sync.Mutex
	machines map[string]*machine
	hosts    map[string]*host // by power address
	vlans    []*vlan
	subnets  []*subnet
	events   []event
	nonces   map[string]time.Time
	nonceQ   []usedNonce // the keys of nonces, oldest first (pruneNonces)
	timers   timerHeap
	faults   faults
	seq      int // machine sequence
	ids      int // ids of interfaces, links, disks, partitions, subnets
	evID     int
	onBoot   func(Boot)
	onErase  func(Erased)
	boots    sync.WaitGroup // running OnBoot hooks
	stopped  bool           // Run has ended: no more boots
	hook     *emitter
	mirrors  []*Mirror         // PostgreSQL mirrors (MirrorPostgres)
	config   map[string]string // MAAS config items (maas/?op=get_config)
}

// New builds a simulator from opts.
func New(opts Options) (*Sim, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	parts := strings.Split(o.APIKey, ":")
	s := &Sim{
		opts:     o,
		key:      [3]string{parts[0], parts[1], parts[2]},
		user:     userKey(o.UserAPIKey),
		machines: map[string]*machine{},
		hosts:    map[string]*host{},
		nonces:   map[string]time.Time{},
		faults:   newFaults(),
		config:   defaultConfig(o.SyncInterval),
	}
	s.hook = newEmitter(o.Logger, o.Rand.Uint64())
	s.addDefaultNetwork()
	return s, nil
}

// Run settles timers every TickInterval, polls unenlisted hosts for PXE
// boots and delivers webhooks, until ctx ends. It returns once the webhook
// emitter and every OnBoot hook it started have returned.
func (s *Sim) Run(ctx context.Context) error {
	done := make(chan struct{})
	go func() { defer close(done); s.hook.run(ctx) }()
	t := time.NewTicker(s.opts.TickInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			<-done
			s.stopBooting()
			return nil
		case <-t.C:
			s.Step(ctx)
		}
	}
}

// Step settles every timer due on the clock and checks unenlisted hosts
// for PXE boots. Tests that use a ManualClock call it after Advance.
func (s *Sim) Step(ctx context.Context) {
	s.mu.Lock()
	intents := s.settleLocked()
	s.mu.Unlock()
	s.applyPower(ctx, intents)
	s.discover(ctx)
}

// OnBoot registers fn to run (on its own goroutine) when a deployment ends
// and the simulated host boots the stored user_data.
func (s *Sim) OnBoot(fn func(Boot)) {
	s.mu.Lock()
	s.onBoot = fn
	s.mu.Unlock()
}

func (s *Sim) now() time.Time { return s.opts.Clock.Now() }

// scaled divides an unscaled duration by the speed factor.
func (s *Sim) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) / s.opts.Speed)
}

func (s *Sim) nextID() int { s.ids++; return s.ids }

// userKey splits the non-admin user's key ("" gives none).
func userKey(k string) [3]string {
	var out [3]string
	if k != "" {
		copy(out[:], strings.Split(k, ":"))
	}
	return out
}
