package maas

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func flag(v url.Values, name string, on bool) {
	if on {
		v.Set(name, "1")
	}
}

// Commission starts commissioning with seed 001's options (SSH enabled
// for debugging, the BMC left as the operator configured it); conflict
// when MAAS refuses the state.
func (c *Client) Commission(ctx context.Context, systemID string) (lifecycle.Machine, error) {
	v := url.Values{}
	flag(v, "enable_ssh", true)
	flag(v, "skip_bmc_config", true)
	return c.machineCall(ctx, "commission", systemID, http.MethodPost, "commission", v)
}

// ImageSeries normalises a series for MAAS: uploaded gpuaas-* images go
// in MAAS's custom namespace (custom/<name>, seed 001 §3.6).
func ImageSeries(series string) string {
	if strings.HasPrefix(series, "gpuaas-") {
		return "custom/" + series
	}
	return series
}

// Deploy deploys a Ready (auto-allocated) or Allocated machine; the
// user data is sent base64-encoded.
func (c *Client) Deploy(ctx context.Context, systemID string, d lifecycle.DeploySpec) (lifecycle.Machine, error) {
	v := url.Values{}
	if len(d.UserData) > 0 {
		v.Set("user_data", base64.StdEncoding.EncodeToString(d.UserData))
	}
	if d.DistroSeries != "" {
		v.Set("distro_series", ImageSeries(d.DistroSeries))
	}
	if d.EnableHWSync {
		v.Set("enable_hw_sync", "true")
	}
	if d.Comment != "" {
		v.Set("comment", d.Comment)
	}
	return c.machineCall(ctx, "deploy", systemID, http.MethodPost, "deploy", v)
}

// Release releases a machine, erasing its disks as r.Erase says; MAAS
// answers Ready and Releasing machines unchanged and refuses New ones
// with a conflict.
func (c *Client) Release(ctx context.Context, systemID string, r lifecycle.ReleaseSpec) (lifecycle.Machine, error) {
	v := url.Values{}
	flag(v, "erase", r.Erase == lifecycle.EraseQuick || r.Erase == lifecycle.EraseSecure)
	flag(v, "secure_erase", r.Erase == lifecycle.EraseSecure)
	flag(v, "quick_erase", r.Erase == lifecycle.EraseQuick)
	flag(v, "force", r.Force)
	if r.Comment != "" {
		v.Set("comment", r.Comment)
	}
	return c.machineCall(ctx, "release", systemID, http.MethodPost, "release", v)
}

// Abort aborts commissioning, deploying, testing or disk erasing.
func (c *Client) Abort(ctx context.Context, systemID, comment string) (lifecycle.Machine, error) {
	return c.machineCall(ctx, "abort", systemID, http.MethodPost, "abort", comment1(comment))
}

// MarkFixed returns a Broken machine to Ready (or Deployed).
func (c *Client) MarkFixed(ctx context.Context, systemID, comment string) (lifecycle.Machine, error) {
	return c.machineCall(ctx, "mark_fixed", systemID, http.MethodPost, "mark_fixed", comment1(comment))
}

// PowerOn powers an allocated or deployed machine on.
func (c *Client) PowerOn(ctx context.Context, systemID string) (lifecycle.Machine, error) {
	return c.machineCall(ctx, "power_on", systemID, http.MethodPost, "power_on", nil)
}

// PowerOff powers a machine off (hard, or soft when soft is true).
func (c *Client) PowerOff(ctx context.Context, systemID string, soft bool) (lifecycle.Machine, error) {
	mode := map[bool]string{true: "soft", false: "hard"}[soft]
	return c.machineCall(ctx, "power_off", systemID, http.MethodPost, "power_off", url.Values{"stop_mode": {mode}})
}

func comment1(s string) url.Values {
	if s == "" {
		return nil
	}
	return url.Values{"comment": {s}}
}

// QueryPowerState asks MAAS to query the BMC now: "on", "off", ...
func (c *Client) QueryPowerState(ctx context.Context, systemID string) (string, error) {
	if err := checkID("maas: query_power_state", systemID); err != nil {
		return "", err
	}
	var out struct {
		State string `json:"state"`
	}
	err := c.do(ctx, request{op: "query_power_state " + systemID, method: http.MethodGet,
		path: "machines/" + url.PathEscape(systemID) + "/", maasOp: "query_power_state"}, &out)
	return out.State, err
}

// SetStorageLayout applies a layout (flat, lvm, bcache, vmfs6, vmfs7,
// custom, blank) to a Ready machine, with its root on rootDeviceID unless
// that is 0.
func (c *Client) SetStorageLayout(ctx context.Context, systemID, layout string, rootDeviceID int) (lifecycle.Machine, error) {
	if layout == "" {
		return lifecycle.Machine{}, lifecycle.Invalid("maas: set_storage_layout", "storage_layout", "must not be empty")
	}
	v := url.Values{"storage_layout": {layout}}
	if rootDeviceID != 0 {
		v.Set("root_device", strconv.Itoa(rootDeviceID))
	}
	return c.machineCall(ctx, "set_storage_layout", systemID, http.MethodPost, "set_storage_layout", v)
}

// MachineToken returns the machine's MAAS token, or nil when MAAS has
// none yet.
func (c *Client) MachineToken(ctx context.Context, systemID string) (*lifecycle.MachineToken, error) {
	if err := checkID("maas: get_token", systemID); err != nil {
		return nil, err
	}
	var w *struct {
		ConsumerKey string `json:"consumer_key"`
		TokenKey    string `json:"token_key"`
		TokenSecret string `json:"token_secret"`
	}
	err := c.do(ctx, request{op: "get_token " + systemID, method: http.MethodGet,
		path: "machines/" + url.PathEscape(systemID) + "/", maasOp: "get_token"}, &w)
	if err != nil || w == nil {
		return nil, err
	}
	return &lifecycle.MachineToken{ConsumerKey: w.ConsumerKey, TokenKey: w.TokenKey, TokenSecret: lifecycle.Secret(w.TokenSecret)}, nil
}
