package maas_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// The machine list is decoded as it arrives: a list call allocates
// less than half the answer's length (reading the body whole first took
// more than the body itself).
func TestMachineListAllocatesLessThanItsAnswer(t *testing.T) {
	e := newEnv(t, 500)
	body := recordMachineList(t, e)
	c := replayClient(t, e, body)
	list := func() {
		if ms, err := c.Machines(context.Background(), lifecycle.MachineFilter{}); err != nil || len(ms) != 500 {
			t.Fatalf("%d machines, %v", len(ms), err)
		}
	}
	list() // the connection to the simulator for anything else, pools
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	list()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(body)/2) {
		t.Errorf("a list of a %d-byte answer allocated %d bytes, want at most half the answer", len(body), got)
	}
}

// An answer longer than the client's limit is refused with an error
// that says so, for the streamed list and for an answer read whole; one
// at the limit is read.
func TestAnswerOverTheLimitIsRefused(t *testing.T) {
	e := newEnv(t, 3)
	body := recordMachineList(t, e)
	c := e.newClient(t, apiKey)
	all, err := c.Machines(context.Background(), lifecycle.MachineFilter{})
	if err != nil {
		t.Fatal(err)
	}
	maas.SetAnswerLimit(c, len(body))
	if ms, err := c.Machines(context.Background(), lifecycle.MachineFilter{}); err != nil || len(ms) != 3 {
		t.Fatalf("list at the limit: %d machines, %v", len(ms), err)
	}
	maas.SetAnswerLimit(c, len(body)-1)
	_, err = c.Machines(context.Background(), lifecycle.MachineFilter{})
	wantTooLarge(t, err, len(body)-1)
	maas.SetAnswerLimit(c, 100)
	_, err = c.Machine(context.Background(), all[0].SystemID)
	wantTooLarge(t, err, 100)
}

func wantTooLarge(t *testing.T, err error, limit int) {
	t.Helper()
	want := "MAAS answered more than " + strconv.Itoa(limit) + " bytes"
	if lifecycle.ErrorCode(err) != lifecycle.CodeInternal || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an internal error saying %q", err, want)
	}
}

// A list whose body breaks off is MAAS unreachable, retried like any
// failed read, not an answer refused.
func TestMachineListCutShortIsUnavailable(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Length", "100000")
		w.Write([]byte(`[{"system_id":"abc","hostname":"h1"},{"system_id":"d`))
	}))
	t.Cleanup(srv.Close)
	c, err := maas.New(maas.Config{BaseURL: srv.URL + "/MAAS/", APIKey: apiKey, ReadRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	maas.RecordWaits(c)
	_, err = c.Machines(context.Background(), lifecycle.MachineFilter{})
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || !strings.Contains(err.Error(), "MAAS unreachable") {
		t.Errorf("got %v, want MAAS unreachable", err)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d calls, want 3 (two retries)", n)
	}
}
