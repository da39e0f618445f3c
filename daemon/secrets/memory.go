package secrets

import (
	"context"
	"maps"
	"sync"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Memory keeps secrets in process memory. It exists for --dev runs only:
// nothing survives a restart and nothing is protected.
type Memory struct {
	mu   sync.Mutex
	data map[string]map[string]string
}

// NewMemory returns an empty in-memory backend, and refuses with
// CodeInvalid unless dev mode is on.
func NewMemory(devMode bool) (*Memory, error) {
	if !devMode {
		return nil, lifecycle.Invalid("secrets.NewMemory", "secrets.backend",
			"the in-memory secret backend is for dev mode only; configure Vault")
	}
	return &Memory{data: make(map[string]map[string]string)}, nil
}

// Read returns a copy of the secret at path, or CodeNotFound.
func (m *Memory) Read(_ context.Context, path string) (map[string]string, error) {
	const op = "secrets.Read"
	if _, _, err := splitPath(op, path); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.data[path]
	if !ok {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, op, "no secret at %s", path)
	}
	return maps.Clone(d), nil
}

// Write replaces the secret at path with a copy of data.
func (m *Memory) Write(_ context.Context, path string, data map[string]string) error {
	if _, _, err := splitPath("secrets.Write", path); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[path] = maps.Clone(data)
	return nil
}
