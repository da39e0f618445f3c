package config

import (
	"net"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Store backends.
const (
	BackendBolt   = "bolt"
	BackendDqlite = "dqlite"
)

// MinLeaseTTL is the shortest store.lease_ttl: a lease is renewed every
// third of its TTL, and a shorter one would lapse on an ordinary pause.
const MinLeaseTTL = 3 * time.Second

// Store chooses the state backend and its site leases.
type Store struct {
	// Backend is bolt (one file under state_dir, one daemon) or dqlite
	// (several daemons replicating one store with Raft).
	Backend string `yaml:"backend"`
	// LeaseTTL is how long a site's lease lives without a renewal: after
	// a daemon dies, another one takes its sites once it has passed.
	LeaseTTL time.Duration `yaml:"lease_ttl"`
	// Dqlite configures this daemon's member of the dqlite cluster.
	Dqlite Dqlite `yaml:"dqlite"`
}

// Dqlite is one member of a dqlite cluster.
type Dqlite struct {
	// Address is the host:port this member listens on for Raft and the
	// other members dial (a fixed port, not a wildcard host).
	Address string `yaml:"address"`
	// Join lists the addresses of members to join at first start; empty
	// on the first member, which forms the cluster.
	Join []string `yaml:"join"`
	// MemberTrust is which certificates the member port accepts:
	// "store_ca" (the default) only the store CA's member certificates;
	// "transition" also the agent-CA member certificates of earlier
	// releases, while a running cluster is upgraded one member at a time
	// (docs/operations.md, "Upgrading a cluster to the store CA").
	MemberTrust string `yaml:"member_trust"`
}

// Member trust modes of the dqlite member port.
const (
	MemberTrustStoreCA    = "store_ca"
	MemberTrustTransition = "transition"
)

// Legacy says whether the member port also accepts the agent-CA member
// certificates of earlier releases.
func (d Dqlite) Legacy() bool { return d.MemberTrust == MemberTrustTransition }

func defaultStore() Store {
	return Store{Backend: BackendBolt, LeaseTTL: 15 * time.Second, Dqlite: Dqlite{MemberTrust: MemberTrustStoreCA}}
}

// Shared says whether the store is shared by several daemons.
func (s Store) Shared() bool { return s.Backend == BackendDqlite }

func (s Store) validate() error {
	switch s.Backend {
	case BackendBolt, BackendDqlite:
	default:
		return invalid("store.backend", "%q is not bolt or dqlite", s.Backend)
	}
	if s.LeaseTTL < MinLeaseTTL {
		return invalid("store.lease_ttl", "%s is under the minimum %s", s.LeaseTTL, MinLeaseTTL)
	}
	if s.Backend != BackendDqlite {
		return nil
	}
	switch s.Dqlite.MemberTrust {
	case "", MemberTrustStoreCA, MemberTrustTransition:
	default:
		return invalid("store.dqlite.member_trust", "%q is not %s or %s", s.Dqlite.MemberTrust, MemberTrustStoreCA, MemberTrustTransition)
	}
	if s.Dqlite.Address == "" {
		return invalid("store.dqlite.address", "required when store.backend is dqlite")
	}
	if err := checkMemberAddr(s.Dqlite.Address); err != "" {
		return invalid("store.dqlite.address", "%q %s", s.Dqlite.Address, err)
	}
	for _, j := range s.Dqlite.Join {
		if err := checkMemberAddr(j); err != "" {
			return invalid("store.dqlite.join", "%q %s", j, err)
		}
		if j == s.Dqlite.Address {
			return invalid("store.dqlite.join", "%q is this member's own address", j)
		}
	}
	return nil
}

// checkMemberAddr is "" for an address other members can dial: host:port
// with a host that is not a wildcard and a port that is not 0.
func checkMemberAddr(s string) string {
	if err := checkHostPort(s); err != nil {
		return "is not host:port (" + err.Error() + ")"
	}
	host, port, _ := net.SplitHostPort(s)
	if host == "" || host == "0.0.0.0" || host == "::" {
		return "needs the host the other members dial, not a wildcard"
	}
	if port == "0" {
		return "needs a fixed port (the members record it)"
	}
	return ""
}

// checkDaemonName is "" for a name usable as a lease holder and in an
// admin token's name.
func checkDaemonName(s string) string {
	if err := lifecycle.CheckDaemonName(s); err != nil {
		return err.Error()
	}
	return ""
}

// Holder is the daemon's name in site leases: DaemonName, else the
// host's name from hostname.
func (c Config) Holder(hostname func() (string, error)) string {
	if c.DaemonName != "" {
		return c.DaemonName
	}
	h, err := hostname()
	if err != nil || h == "" {
		return "maas-sidecar"
	}
	return h
}
