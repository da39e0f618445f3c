package hostinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
)

// User is one /etc/passwd entry.
type User struct {
	Name string
	UID  int
	Home string
}

// UIDRange is the range of regular users (login.defs UID_MIN..UID_MAX).
type UIDRange struct{ Min, Max int }

// Defaults of shadow's tools when login.defs lacks the keys.
const (
	DefaultUIDMin = 1000
	DefaultUIDMax = 60000
	nobodyUID     = 65534
)

// ReadUIDRange reads UID_MIN and UID_MAX from /etc/login.defs; missing
// keys (or a missing file) take shadow's defaults.
func ReadUIDRange(root hostroot.Root) (UIDRange, error) {
	r := UIDRange{DefaultUIDMin, DefaultUIDMax}
	b, err := os.ReadFile(root.Path("/etc/login.defs"))
	if os.IsNotExist(err) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("hostinfo: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		switch f[0] {
		case "UID_MIN":
			r.Min = n
		case "UID_MAX":
			r.Max = n
		}
	}
	return r, nil
}

// ReadUsers parses /etc/passwd.
func ReadUsers(root hostroot.Root) ([]User, error) {
	b, err := os.ReadFile(root.Path("/etc/passwd"))
	if err != nil {
		return nil, fmt.Errorf("hostinfo: %w", err)
	}
	var out []User
	for line := range strings.SplitSeq(string(b), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 7 || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-") {
			continue
		}
		uid, err := strconv.Atoi(f[2])
		if err != nil {
			continue
		}
		out = append(out, User{Name: f[0], UID: uid, Home: f[5]})
	}
	return out, nil
}

// Tenants is the rule for who is a tenant.
type Tenants struct {
	Range    UIDRange
	Keep     []string // names never counted
	AgentUID int      // the agent's own UID, never counted
}

// IsTenantUID reports whether uid is in the regular range and not nobody
// nor the agent's own. Kept names are checked by IsTenant.
func (t Tenants) IsTenantUID(uid int) bool {
	return uid >= t.Range.Min && uid <= t.Range.Max && uid != nobodyUID && uid != t.AgentUID
}

// IsTenant reports whether u is a tenant user.
func (t Tenants) IsTenant(u User) bool {
	return t.IsTenantUID(u.UID) && !slices.Contains(t.Keep, u.Name)
}

// KeptUIDs returns the UIDs of kept users, whose processes are not residue.
func (t Tenants) KeptUIDs(users []User) map[int]bool {
	out := map[int]bool{}
	for _, u := range users {
		if slices.Contains(t.Keep, u.Name) {
			out[u.UID] = true
		}
	}
	return out
}

// Select returns the tenant users, limited to names when names is not empty.
func (t Tenants) Select(users []User, names []string) []User {
	var out []User
	for _, u := range users {
		if t.IsTenant(u) && (len(names) == 0 || slices.Contains(names, u.Name)) {
			out = append(out, u)
		}
	}
	return out
}
