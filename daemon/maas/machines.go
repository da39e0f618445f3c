package maas

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Machines lists the machines matching f (all when f is empty).
func (c *Client) Machines(ctx context.Context, f lifecycle.MachineFilter) ([]lifecycle.Machine, error) {
	q := url.Values{}
	for key, vals := range map[string][]string{"id": f.IDs, "hostname": f.Hostnames, "mac_address": f.MACAddresses} {
		for _, v := range vals {
			q.Add(key, v)
		}
	}
	var ms machineList
	if err := c.do(ctx, request{op: "list machines", method: http.MethodGet, path: "machines/", params: q}, &ms); err != nil {
		return nil, err
	}
	if ms == nil {
		ms = machineList{} // an empty answer: no machines
	}
	return ms, nil
}

// Machine reads one machine; not_found when MAAS has none with that id.
func (c *Client) Machine(ctx context.Context, systemID string) (lifecycle.Machine, error) {
	return c.machineCall(ctx, "read", systemID, http.MethodGet, "", nil)
}

func (c *Client) machineCall(ctx context.Context, verb, sid, method, op string, p url.Values) (lifecycle.Machine, error) {
	if err := checkID("maas: "+verb, sid); err != nil {
		return lifecycle.Machine{}, err
	}
	var w wireMachine
	r := request{op: verb + " " + sid, method: method, path: "machines/" + url.PathEscape(sid) + "/", maasOp: op, params: p}
	if err := c.do(ctx, r, &w); err != nil {
		return lifecycle.Machine{}, err
	}
	return w.machine(), nil
}

func checkID(op, sid string) error {
	if sid == "" {
		return lifecycle.Invalid(op, "system_id", "must not be empty")
	}
	return nil
}

// ipmiParams sets a BMC login as MAAS's IPMI power parameters; the
// password goes only into the request body, never into a log line.
func ipmiParams(v url.Values, b lifecycle.BMCLogin) {
	v.Set("power_type", "ipmi")
	for k, val := range map[string]string{"power_address": b.Address, "power_user": b.User, "power_pass": b.Pass.Reveal()} {
		if val != "" {
			v.Set("power_parameters_"+k, val)
		}
	}
}

// CreateMachine creates an IPMI machine behind bmc; MAAS starts
// commissioning it at once.
func (c *Client) CreateMachine(ctx context.Context, hostname string, bmc lifecycle.BMCLogin) (lifecycle.Machine, error) {
	if bmc.Address == "" {
		return lifecycle.Machine{}, lifecycle.Invalid("maas: create machine", "power_address", "must not be empty")
	}
	v := url.Values{"commission": {"true"}}
	ipmiParams(v, bmc)
	if hostname != "" {
		v.Set("hostname", hostname)
	}
	var w wireMachine
	if err := c.do(ctx, request{op: "create machine " + hostname, method: http.MethodPost, path: "machines/", params: v}, &w); err != nil {
		return lifecycle.Machine{}, err
	}
	return w.machine(), nil
}
