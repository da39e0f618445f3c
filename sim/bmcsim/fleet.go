package bmcsim

import (
	"sync"

	"github.com/gpuaas/maas-sidecar/ipmi"
)

// Fleet holds simulated BMCs by address ("host:port", port 623 by default),
// and hands out sessions the way ipmi.Client hands out real BMCs. A target
// with no simulated BMC behind it does not answer.
type Fleet struct {
	mu   sync.Mutex
	bmcs map[string]*BMC
}

// Add puts b at target's address (its credentials are not used).
func (f *Fleet) Add(target ipmi.Target, b *BMC) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.bmcs == nil {
		f.bmcs = make(map[string]*BMC)
	}
	f.bmcs[target.Addr()] = b
}

// Get returns the BMC at target's address, or nil.
func (f *Fleet) Get(target ipmi.Target) *BMC {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bmcs[target.Addr()]
}

// BMC returns a session on target's BMC with target's credentials.
func (f *Fleet) BMC(target ipmi.Target) ipmi.BMC {
	b := f.Get(target)
	if b == nil {
		b = New(Config{})
		b.SetReachable(false)
	}
	return b.Session(target.User, target.Pass)
}
