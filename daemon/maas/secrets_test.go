package maas_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// No part of an API key, and no machine token secret, may appear in an
// error string or a log line — even where MAAS echoes them back.
func TestNoSecretInErrorsOrLogs(t *testing.T) {
	e := newEnv(t, 1)
	ctx := context.Background()
	var errs []string
	record := func(err error) {
		if err != nil {
			errs = append(errs, err.Error(), fmt.Sprintf("%+v %#v", err, err))
		}
	}
	// MAAS answers "Authorization Error: 'Invalid access token: <token key>'".
	wrongToken := e.newClient(t, consumerKey+":"+tokenKey+"-x:"+tokenSecret)
	_, err := wrongToken.WhoAmI(ctx)
	record(err)
	e.sim.SetOpFault("GET machines", maassim.OpFault{ErrorRate: 1})
	_, err = e.client.Machines(ctx, lifecycle.MachineFilter{}) // retried, logged at debug
	record(err)
	e.sim.SetOpFault("GET machines", maassim.OpFault{})
	_, err = maas.New(maas.Config{BaseURL: "http://x/MAAS/", APIKey: tokenSecret})
	record(err)
	ms, _ := e.client.Machines(ctx, lifecycle.MachineFilter{})
	if _, err := e.client.Deploy(ctx, ms[0].SystemID, lifecycle.DeploySpec{}); err != nil {
		t.Fatal(err)
	}
	tok, _ := e.client.MachineToken(ctx, ms[0].SystemID)
	shown := fmt.Sprint(tok) + fmt.Sprintf("%v %+v %#v", *tok, *tok, *tok)
	if len(errs) < 3 || !strings.Contains(errs[0], "Invalid access token") {
		t.Fatalf("errors not produced as expected: %q", errs)
	}
	haystack := strings.Join(errs, "\n") + e.logs.String()
	if !strings.Contains(e.logs.String(), "retrying read") {
		t.Fatal("the retry was not logged; the log check proves nothing")
	}
	for _, secret := range []string{consumerKey, tokenKey, tokenSecret} {
		if strings.Contains(haystack, secret) {
			t.Errorf("%q leaked:\n%s", secret, haystack)
		}
	}
	if strings.Contains(shown, tok.TokenSecret.Reveal()) {
		t.Errorf("machine token secret shown by fmt: %s", shown)
	}
}
