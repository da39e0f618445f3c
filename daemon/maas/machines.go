package maas

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// MachineFilter selects machines server-side; every non-empty list is a
// repeated key, and a machine matches when it matches each list.
type MachineFilter struct {
	IDs, Hostnames, MACAddresses []string
}

// Machines lists the machines matching f (all when f is empty).
func (c *Client) Machines(ctx context.Context, f MachineFilter) ([]Machine, error) {
	q := url.Values{}
	for key, vals := range map[string][]string{"id": f.IDs, "hostname": f.Hostnames, "mac_address": f.MACAddresses} {
		for _, v := range vals {
			q.Add(key, v)
		}
	}
	var ws []wireMachine
	if err := c.do(ctx, request{op: "list machines", method: http.MethodGet, path: "machines/", params: q}, &ws); err != nil {
		return nil, err
	}
	out := make([]Machine, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.machine())
	}
	return out, nil
}

// Machine reads one machine; not_found when MAAS has none with that id.
func (c *Client) Machine(ctx context.Context, systemID string) (Machine, error) {
	return c.machineCall(ctx, "read", systemID, http.MethodGet, "", nil)
}

func (c *Client) machineCall(ctx context.Context, verb, sid, method, op string, p url.Values) (Machine, error) {
	if err := checkID("maas: "+verb, sid); err != nil {
		return Machine{}, err
	}
	var w wireMachine
	r := request{op: verb + " " + sid, method: method, path: "machines/" + url.PathEscape(sid) + "/", maasOp: op, params: p}
	if err := c.do(ctx, r, &w); err != nil {
		return Machine{}, err
	}
	return w.machine(), nil
}

func checkID(op, sid string) error {
	if sid == "" {
		return lifecycle.Invalid(op, "system_id", "must not be empty")
	}
	return nil
}

// IPMIPower is a machine's IPMI power configuration. Password and KG are
// secret and never logged.
type IPMIPower struct {
	Address, User, Password string
	Driver                  string // LAN or LAN_2_0 (MAAS default)
	BootType                string // auto, legacy, efi
	CipherSuiteID           string // MAAS default "3"
	PrivilegeLevel          string // USER, OPERATOR (default), ADMIN
	KG                      string
	MACAddress              string
}

func (p IPMIPower) add(v url.Values) {
	for k, val := range map[string]string{"power_address": p.Address, "power_user": p.User,
		"power_pass": p.Password, "power_driver": p.Driver, "power_boot_type": p.BootType,
		"cipher_suite_id": p.CipherSuiteID, "privilege_level": p.PrivilegeLevel, "k_g": p.KG,
		"mac_address": p.MACAddress} {
		if val != "" {
			v.Set("power_parameters_"+k, val)
		}
	}
}

// NewMachine is what CreateMachine sends.
type NewMachine struct {
	Hostname, Description string
	Architecture          string // amd64 -> amd64/generic; optional for IPMI
	MACAddresses          []string
	Power                 IPMIPower
	// NoCommission creates the machine New instead of commissioning it.
	NoCommission bool
}

// CreateMachine creates an IPMI machine. MAAS starts commissioning it at
// once unless NoCommission is set.
func (c *Client) CreateMachine(ctx context.Context, n NewMachine) (Machine, error) {
	if n.Power.Address == "" {
		return Machine{}, lifecycle.Invalid("maas: create machine", "power_address", "must not be empty")
	}
	v := url.Values{"power_type": {"ipmi"}, "mac_addresses": n.MACAddresses}
	n.Power.add(v)
	for k, val := range map[string]string{"hostname": n.Hostname, "description": n.Description, "architecture": n.Architecture} {
		if val != "" {
			v.Set(k, val)
		}
	}
	v.Set("commission", strconv.FormatBool(!n.NoCommission))
	var w wireMachine
	if err := c.do(ctx, request{op: "create machine " + n.Hostname, method: http.MethodPost, path: "machines/", params: v}, &w); err != nil {
		return Machine{}, err
	}
	return w.machine(), nil
}
