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

// CommissionOptions are op=commission's parameters.
type CommissionOptions struct {
	EnableSSH, SkipBMCConfig, SkipNetworking, SkipStorage bool
	CommissioningScripts, TestingScripts                  []string
}

// Commission starts commissioning; conflict when MAAS refuses the state.
func (c *Client) Commission(ctx context.Context, systemID string, o CommissionOptions) (Machine, error) {
	v := url.Values{}
	flag(v, "enable_ssh", o.EnableSSH)
	flag(v, "skip_bmc_config", o.SkipBMCConfig)
	flag(v, "skip_networking", o.SkipNetworking)
	flag(v, "skip_storage", o.SkipStorage)
	if len(o.CommissioningScripts) > 0 {
		v.Set("commissioning_scripts", strings.Join(o.CommissioningScripts, ","))
	}
	if len(o.TestingScripts) > 0 {
		v.Set("testing_scripts", strings.Join(o.TestingScripts, ","))
	}
	return c.machineCall(ctx, "commission", systemID, http.MethodPost, "commission", v)
}

// DeployOptions are op=deploy's parameters. UserData is sent base64-encoded.
type DeployOptions struct {
	UserData     []byte
	DistroSeries string // jammy, ubuntu/jammy, 22.04, or an image name
	EnableHWSync bool
	HWEKernel    string
	Comment      string
}

// ImageSeries normalises a series for MAAS: uploaded gpuaas-* images go
// in MAAS's custom namespace (custom/<name>, seed 001 §3.6).
func ImageSeries(series string) string {
	if strings.HasPrefix(series, "gpuaas-") {
		return "custom/" + series
	}
	return series
}

// Deploy deploys a Ready (auto-allocated) or Allocated machine.
func (c *Client) Deploy(ctx context.Context, systemID string, o DeployOptions) (Machine, error) {
	v := url.Values{}
	if len(o.UserData) > 0 {
		v.Set("user_data", base64.StdEncoding.EncodeToString(o.UserData))
	}
	if o.DistroSeries != "" {
		v.Set("distro_series", ImageSeries(o.DistroSeries))
	}
	if o.EnableHWSync {
		v.Set("enable_hw_sync", "true")
	}
	if o.HWEKernel != "" {
		v.Set("hwe_kernel", o.HWEKernel)
	}
	if o.Comment != "" {
		v.Set("comment", o.Comment)
	}
	return c.machineCall(ctx, "deploy", systemID, http.MethodPost, "deploy", v)
}

// ReleaseOptions are op=release's parameters.
type ReleaseOptions struct {
	Erase, SecureErase, QuickErase, Force bool
	Comment                               string
}

// Release releases a machine; MAAS answers Ready and Releasing machines
// unchanged and refuses New ones with a conflict.
func (c *Client) Release(ctx context.Context, systemID string, o ReleaseOptions) (Machine, error) {
	v := url.Values{}
	flag(v, "erase", o.Erase)
	flag(v, "secure_erase", o.SecureErase)
	flag(v, "quick_erase", o.QuickErase)
	flag(v, "force", o.Force)
	if o.Comment != "" {
		v.Set("comment", o.Comment)
	}
	return c.machineCall(ctx, "release", systemID, http.MethodPost, "release", v)
}

// Abort aborts commissioning, deploying, testing or disk erasing.
func (c *Client) Abort(ctx context.Context, systemID, comment string) (Machine, error) {
	return c.machineCall(ctx, "abort", systemID, http.MethodPost, "abort", comment1(comment))
}

// MarkFixed returns a Broken machine to Ready (or Deployed).
func (c *Client) MarkFixed(ctx context.Context, systemID, comment string) (Machine, error) {
	return c.machineCall(ctx, "mark_fixed", systemID, http.MethodPost, "mark_fixed", comment1(comment))
}

// PowerOn powers an allocated or deployed machine on.
func (c *Client) PowerOn(ctx context.Context, systemID string) (Machine, error) {
	return c.machineCall(ctx, "power_on", systemID, http.MethodPost, "power_on", nil)
}

// PowerOff powers a machine off (hard, or soft when soft is true).
func (c *Client) PowerOff(ctx context.Context, systemID string, soft bool) (Machine, error) {
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

// StorageLayout is op=set_storage_layout's parameters.
type StorageLayout struct {
	Layout       string // flat, lvm, bcache, vmfs6, vmfs7, custom, blank
	BootSize     string
	RootSize     string
	RootDeviceID int
}

// SetStorageLayout applies a layout to a Ready machine.
func (c *Client) SetStorageLayout(ctx context.Context, systemID string, l StorageLayout) (Machine, error) {
	if l.Layout == "" {
		return Machine{}, lifecycle.Invalid("maas: set_storage_layout", "storage_layout", "must not be empty")
	}
	v := url.Values{"storage_layout": {l.Layout}}
	for k, val := range map[string]string{"boot_size": l.BootSize, "root_size": l.RootSize} {
		if val != "" {
			v.Set(k, val)
		}
	}
	if l.RootDeviceID != 0 {
		v.Set("root_device", strconv.Itoa(l.RootDeviceID))
	}
	return c.machineCall(ctx, "set_storage_layout", systemID, http.MethodPost, "set_storage_layout", v)
}

// Token returns the machine's MAAS token, or nil when MAAS has none yet.
func (c *Client) Token(ctx context.Context, systemID string) (*Token, error) {
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
	return &Token{ConsumerKey: w.ConsumerKey, TokenKey: w.TokenKey, TokenSecret: w.TokenSecret}, nil
}
