package bmcsim

import (
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/ipmi"
)

// Config describes one simulated BMC. A zero CycleDelay means 500 ms; a nil
// Clock means the wall clock.
type Config struct {
	User       string
	Pass       string
	CycleDelay time.Duration
	Clock      clockwork.Clock // times the delayed half of a power cycle
}

// Snapshot is what the simulated machine looks like now.
type Snapshot struct {
	Power      ipmi.PowerState
	Boot       ipmi.BootDevice // the device the next boot uses
	Persistent bool
	Boots      int             // power-on transitions so far
	LastBoot   ipmi.BootDevice // the device the last boot used
}

// BMC is one simulated BMC and its machine. It starts powered off, set to
// boot from disk. It is safe for concurrent use.
type BMC struct {
	mu        sync.Mutex
	cfg       Config
	state     Snapshot
	reachable bool
	// cycleOn is when a running cycle powers on (zero: none runs). The
	// power-on happens at the first look at the machine from then on, so
	// no goroutine or timer is needed and a fake clock settles it exactly.
	cycleOn time.Time
}

// New returns a simulated BMC that accepts cfg's credentials.
func New(cfg Config) *BMC {
	if cfg.CycleDelay == 0 {
		cfg.CycleDelay = 500 * time.Millisecond
	}
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	return &BMC{cfg: cfg, reachable: true, state: Snapshot{Power: ipmi.PowerOff, Boot: ipmi.BootDisk}}
}

// Session returns the ipmi.BMC seen with the given credentials. They are
// checked on every call, so rotating them with SetCredentials takes effect
// at once.
func (b *BMC) Session(user, pass string) ipmi.BMC { return &session{b: b, user: user, pass: pass} }

// SetCredentials changes the credentials the BMC accepts.
func (b *BMC) SetCredentials(user, pass string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cfg.User, b.cfg.Pass = user, pass
}

// SetReachable switches the BMC's network on or off.
func (b *BMC) SetReachable(ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reachable = ok
}

// Snapshot returns the machine's state.
func (b *BMC) Snapshot() Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	return b.state
}
