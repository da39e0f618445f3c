package maassim

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"
)

// Durations are the unscaled times MAAS-like operations take. The simulator
// divides each by Options.Speed.
type Durations struct {
	Commissioning, Testing, Deploying, Releasing time.Duration
	// DiskErasing, QuickErase and SecureErase are how long a release with
	// erase spends in Disk erasing by method: a full overwrite (erase
	// alone), quick_erase, and secure_erase on drives that have it. A zero
	// SecureErase means DiskErasing.
	DiskErasing, QuickErase, SecureErase time.Duration
	Discovery                            time.Duration
	// CommissioningTimeout and DeployingTimeout are MAAS's monitored
	// timeouts (20 and 40 minutes) after which a node whose power action
	// failed moves to its failed status.
	CommissioningTimeout, DeployingTimeout time.Duration
}

// DefaultDurations are plausible timings of a GPU server.
func DefaultDurations() Durations {
	return Durations{
		Commissioning: 5 * time.Minute, Testing: time.Minute, Deploying: 10 * time.Minute,
		Releasing: time.Minute, DiskErasing: 10 * time.Minute, QuickErase: 2 * time.Minute,
		SecureErase: 4 * time.Minute, Discovery: 3 * time.Minute, CommissioningTimeout: 20 * time.Minute,
		DeployingTimeout: 40 * time.Minute,
	}
}

// Options configure a Sim. The zero value of every field means its default.
type Options struct {
	APIKey       string       // consumer_key:token_key:token_secret of the admin user; required
	Username     string       // default "admin"
	UserAPIKey   string       // a second user's key ("user", not an admin: admin-only calls answer it 403); default none
	Rand         *rand.Rand   // default seeded with Seed
	Seed         uint64       // seed of the default Rand
	Logger       *slog.Logger // default discards
	Speed        float64      // duration divisor; default 1
	Durations    Durations    // default DefaultDurations()
	SyncInterval int          // hardware_sync_interval in seconds; default 900
	Version      string       // reported by version/; default "3.6.5"
	// Clock measures every simulated duration (status timers, nonce
	// windows, hardware-sync stamps); default the real clock.
	Clock clockwork.Clock
	// NewBMC builds the BMC of a host; default NewMemBMC.
	NewBMC func(powerAddress string) BMC
	// CustomImages are the names deployable as custom/<name>.
	CustomImages []string
	// TickInterval is how often Run settles timers; default 50ms.
	TickInterval time.Duration
}

func (o Options) withDefaults() (Options, error) {
	if len(strings.Split(o.APIKey, ":")) != 3 {
		return o, errors.New("maassim: api key must be consumer_key:token_key:token_secret")
	}
	if o.UserAPIKey != "" && len(strings.Split(o.UserAPIKey, ":")) != 3 {
		return o, errors.New("maassim: the user api key must be consumer_key:token_key:token_secret")
	}
	if o.Speed < 0 {
		return o, fmt.Errorf("maassim: speed %v must be positive", o.Speed)
	}
	if o.Speed == 0 {
		o.Speed = 1
	}
	if o.Username == "" {
		o.Username = "admin"
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Rand == nil {
		o.Rand = rand.New(rand.NewPCG(o.Seed, o.Seed^0x5eed))
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Durations == (Durations{}) {
		o.Durations = DefaultDurations()
	}
	if o.Durations.SecureErase == 0 {
		o.Durations.SecureErase = o.Durations.DiskErasing
	}
	if o.SyncInterval == 0 {
		o.SyncInterval = 900
	}
	if o.Version == "" {
		o.Version = "3.6.5"
	}
	if o.NewBMC == nil {
		o.NewBMC = func(string) BMC { return NewMemBMC() }
	}
	if o.TickInterval == 0 {
		o.TickInterval = 50 * time.Millisecond
	}
	return o, nil
}
