package hwsync

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

// Type is the task type this package handles.
const Type = "node.hw_sync_reseed"

// Host paths and units, as MAAS's vendor-data installs them.
const (
	CredsPath    = "/etc/maas/maas-machine-creds.yml"
	TimerUnit    = "maas_hardware_sync.timer"
	ServiceUnit  = "maas_hardware_sync.service"
	credsDirMode = 0o700
	credsMode    = 0o600
)

func init() { task.Register(Type, Handler{}) }

// Payload is the task's payload (wire.HWSyncReseed): the machine token
// MAAS issued for this machine and its status endpoint.
type Payload = wire.HWSyncReseed

func validate(p Payload) error {
	var missing []string
	for k, v := range map[string]string{"endpoint": p.Endpoint, "consumer_key": p.ConsumerKey, "token_key": p.TokenKey, "token_secret": p.TokenSecret} {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("hw_sync_reseed: payload lacks %s", strings.Join(missing, ", "))
	}
	return nil
}

// creds mirrors the file MAAS writes; field order is MAAS's sorted order.
type creds struct {
	Reporting struct {
		Maas struct {
			ConsumerKey string `yaml:"consumer_key"`
			Endpoint    string `yaml:"endpoint"`
			TokenKey    string `yaml:"token_key"`
			TokenSecret string `yaml:"token_secret"`
		} `yaml:"maas"`
	} `yaml:"reporting"`
}

// Render returns the credentials file for p.
func Render(p Payload) ([]byte, error) {
	var c creds
	m := &c.Reporting.Maas
	m.ConsumerKey, m.Endpoint, m.TokenKey, m.TokenSecret = p.ConsumerKey, p.Endpoint, p.TokenKey, p.TokenSecret
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

// Handler runs node.hw_sync_reseed.
type Handler struct{}

// Run implements task.Handler. Errors never carry the token.
func (Handler) Run(ctx context.Context, env task.Env, payload []byte) (task.Result, error) {
	var p Payload
	if err := json.Unmarshal(payload, &p); err != nil {
		return task.Result{}, errors.New("hw_sync_reseed: payload is not a JSON object of the expected shape")
	}
	if err := validate(p); err != nil {
		return task.Result{}, err
	}
	body, err := Render(p)
	if err != nil {
		return task.Result{}, fmt.Errorf("hw_sync_reseed: render credentials: %w", err)
	}
	path := env.Root.Path(CredsPath)
	if err := writeCreds(path, body); err != nil {
		return task.Result{}, err
	}
	if err := env.Systemd.Enable(ctx, TimerUnit); err != nil {
		return task.Result{}, err
	}
	for _, u := range []string{TimerUnit, ServiceUnit} {
		if err := env.Systemd.Restart(ctx, u); err != nil {
			return task.Result{}, err
		}
	}
	return task.Result{Message: "hardware-sync credentials rewritten and units restarted",
		Details: map[string]string{"creds_path": CredsPath, "units": TimerUnit + "," + ServiceUnit}}, nil
}

// writeCreds replaces the file atomically (fsynced file and directory)
// with mode 0600.
func writeCreds(path string, body []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), credsDirMode); err != nil {
		return fmt.Errorf("hw_sync_reseed: %w", err)
	}
	if err := atomicfile.Write(path, body, credsMode); err != nil {
		return fmt.Errorf("hw_sync_reseed: write %s: %w", CredsPath, err)
	}
	return nil
}
