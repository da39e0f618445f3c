package maas

import (
	"context"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// RecordWaits makes c's retries wait no time and returns the delays they
// asked for.
func RecordWaits(c *Client) func() []time.Duration {
	var mu sync.Mutex
	var waits []time.Duration
	c.wait = func(ctx context.Context, d time.Duration) bool {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, d)
		return ctx.Err() == nil
	}
	return func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Duration(nil), waits...)
	}
}

// DecodeMachines is the client's decode of a GET machines/ answer into
// the domain's machines, with its error.
func DecodeMachines(body []byte) ([]lifecycle.Machine, error) {
	var ms machineList
	if err := decode("list machines", body, &ms); err != nil {
		return nil, err
	}
	if ms == nil {
		ms = machineList{} // as Machines has it
	}
	return ms, nil
}

// UnmarshalMachines is the decode the client had before machineList:
// encoding/json into wireMachine, then translation. Tests hold the new
// one to its results and errors.
func UnmarshalMachines(body []byte) ([]lifecycle.Machine, error) {
	var ws []wireMachine
	if err := decode("list machines", body, &ws); err != nil {
		return nil, err
	}
	return machines(ws), nil
}
