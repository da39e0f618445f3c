package maas

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
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
	return DecodeMachinesFrom(bytes.NewReader(body), maxAnswer, streamWindow)
}

// DecodeMachinesFrom is the client's decode of a GET machines/ answer
// read from body, refused over limit bytes, through a window of the given
// size; a read failure is returned as it is.
func DecodeMachinesFrom(body io.Reader, limit, window int) ([]lifecycle.Machine, error) {
	var ms machineList
	decodeErr, readErr := decodeStream("list machines", body, limit, window, &ms)
	if err := errors.Join(readErr, decodeErr); err != nil {
		return nil, err
	}
	if ms == nil {
		ms = machineList{} // as Machines has it
	}
	return ms, nil
}

// DecodeMachinesWhole is the decode the client had before it streamed:
// the same reader over the whole answer, read beforehand.
func DecodeMachinesWhole(body []byte) ([]lifecycle.Machine, error) {
	var ms machineList
	s := &jstream{src: bytes.NewReader(nil), limit: maxAnswer, r: jreader{b: body}, eof: true}
	if err := ms.decodeStream(s); err != nil {
		return nil, unexpectedJSON("list machines", len(body), err)
	}
	return ms, nil
}

// UnmarshalMachines is the decode the client had before machineList:
// encoding/json into wireMachine, then translation. Tests hold the new
// one to its results and errors.
func UnmarshalMachines(body []byte) ([]lifecycle.Machine, error) {
	var ws []wireMachine
	if len(body) == 0 {
		return machines(ws), nil
	}
	if err := json.Unmarshal(body, &ws); err != nil {
		return nil, unexpectedJSON("list machines", len(body), err)
	}
	return machines(ws), nil
}

// SetAnswerLimit makes c refuse answers longer than n bytes.
func SetAnswerLimit(c *Client, n int) { c.limit = n }
