//go:build e2e && browser

package system

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// TestBrowserConsole drives the console of the real daemon, on a
// simulated site, in headless Chromium. gpu-002's deployment fails twice
// (the simulator's fault), so its onboarding waits for an operator; gpu-001
// becomes active. A viewer sees the failed run without any action and its
// hand-made form is refused; an operator's form without the CSRF token is
// refused; the operator restarts the run clean with a reason and watches
// it complete without a reload, soft-resets gpu-001 from the confirm page
// and reads its evidence report, then signs out. With CONSOLE_SCREENSHOTS
// set (make screenshots) every page is saved there.
func TestBrowserConsole(t *testing.T) {
	began := time.Now()
	w := newWorld(t, simOptions{machines: 2, speed: 600, gpus: "nvidia:8"})
	w.sim.control("machines/"+w.sim.machines["gpu-002"].systemID+"/fail-deployment", map[string]int{"count": 2})
	batch, _ := w.onboard(hostnames(1, 2)...)
	if r := w.daemon.cli("", "onboarding", "watch", "--batch", batch); r.code != 7 {
		t.Fatalf("onboarding watch: want exit 7 (gpu-002 waits for an operator); %s", r)
	}
	runs := w.runs(batch)
	c := &consoleRun{t: t, w: w, ctx: chrome(t, 80*time.Second), base: w.daemon.url(""),
		failed: runs["gpu-002"], active: runs["gpu-001"]}
	c.viewer()
	c.operatorFleet()
	c.recover()
	c.softReset()
	c.readLists()
	signOut(t, c.ctx, c.base)
	t.Logf("the console's browser flow took %v (%v in the browser)", time.Since(began).Round(time.Second), time.Since(c.browserFrom).Round(time.Second))
}

// consoleRun is the state of TestBrowserConsole's flow.
type consoleRun struct {
	t              *testing.T
	w              *world
	ctx            context.Context
	base           string
	failed, active runView
	browserFrom    time.Time
}

// token creates an admin token of role through the CLI and returns it.
func (c *consoleRun) token(role string) string {
	var out struct{ Token string }
	c.w.daemon.json(&out, "token", "create", "--name", "console-"+role, "--role", role, "--reason", "e2e: console "+role)
	if out.Token == "" {
		c.t.Fatalf("token create --role %s returned no token", role)
	}
	return out.Token
}

// actionLinks lists the paths of the page's action buttons.
func (c *consoleRun) actionLinks() []string {
	return evalJS[[]string](c.t, c.ctx, `Array.from(document.querySelectorAll('a[href*="/act/"], a[href$="/activate"], a[href$="/decommission"]'),
		a => a.getAttribute("href").split("/").pop())`)
}

// forge posts a retry of the failed run from a script in the page (as a
// page of another site would post a form), with the page's own CSRF
// token or without one, and returns the status.
func (c *consoleRun) forge(withCSRF bool) int {
	js := fmt.Sprintf(`fetch("/console/runs/%s/act/retry", {method: "POST",
		headers: {"Content-Type": "application/x-www-form-urlencoded"},
		body: "reason=forged" + (%v ? "&csrf=" + document.querySelector('input[name=csrf]').value : "")}).then(r => r.status)`,
		c.failed.ID, withCSRF)
	return evalJS[int](c.t, c.ctx, js)
}

// viewer: a viewer sees the failed run and gpu-001's node without one
// action button, and its form (with its own CSRF token) is refused.
func (c *consoleRun) viewer() {
	t := c.t
	viewer := c.token("viewer")
	c.browserFrom = time.Now()
	signIn(t, c.ctx, c.base, viewer, "login")
	do(t, c.ctx, chromedp.Navigate(c.base+"/console/runs/"+c.failed.ID), chromedp.WaitVisible(chromedp.CSS("#failure")), shot("run-viewer"))
	if got := c.actionLinks(); len(got) != 0 {
		t.Errorf("a viewer sees the actions %v on a failed run", got)
	}
	if s := c.forge(true); s != 403 {
		t.Errorf("a viewer's retry form: %d, want 403", s)
	}
	do(t, c.ctx, chromedp.Navigate(c.base+"/console/nodes/"+c.active.NodeID), chromedp.WaitVisible(chromedp.CSS("#runs")))
	if got := c.actionLinks(); len(got) != 0 {
		t.Errorf("a viewer sees the actions %v on an active node", got)
	}
	signOut(t, c.ctx, c.base)
}

// operatorFleet: the operator signs in, sees both nodes in the fleet,
// follows gpu-002 to its node and its failed run, whose page names the
// failure and offers the actions valid for it, the recommended first.
// A form without the CSRF token is refused and changes nothing.
func (c *consoleRun) operatorFleet() {
	t := c.t
	signIn(t, c.ctx, c.base, c.token("operator"))
	do(t, c.ctx, shot("fleet"))
	if s := text(t, c.ctx, "main"); !strings.Contains(s, "gpu-001") || !strings.Contains(s, "gpu-002") ||
		!strings.Contains(s, "Nodes by site and state (2)") {
		t.Fatalf("the fleet page shows:\n%s", s)
	}
	do(t, c.ctx, chromedp.Click(chromedp.CSS(`a[href="/console/nodes/`+c.failed.NodeID+`"]`)), chromedp.WaitVisible(chromedp.CSS("#runs")),
		shot("node"), chromedp.Click(chromedp.CSS(`a[href="/console/runs/`+c.failed.ID+`"]`)), chromedp.WaitVisible(chromedp.CSS("#failure")),
		shot("run-failed"))
	if s := text(t, c.ctx, "#main"); !strings.Contains(s, "deploy_cloud_init_failure") || !strings.Contains(s, "restart_clean") {
		t.Fatalf("the failed run's page shows:\n%s", s)
	}
	want := []string{"restart-clean", "retry", "resume", "rerun", "cancel", "adopt"}
	if got := c.actionLinks(); !slices.Equal(got, want) {
		t.Errorf("the failed run offers %v, want %v (the recommended first)", got, want)
	}
	if got := text(t, c.ctx, ".actions .recommended"); !strings.HasPrefix(got, "Restart clean") {
		t.Errorf("the highlighted action is %q, want Restart clean", got)
	}
	if s := c.forge(false); s != 403 {
		t.Errorf("an operator's form without the CSRF token: %d, want 403", s)
	}
	if s := text(t, c.ctx, "#run-status"); s != "failed_manual_intervention" {
		t.Errorf("after the refused form the run is %s", s)
	}
}

// recover restarts the failed run clean with a reason from its confirm
// page and watches it move through its stages to completed in place.
func (c *consoleRun) recover() {
	t := c.t
	do(t, c.ctx, chromedp.Click(chromedp.CSS(`a[href="/console/runs/`+c.failed.ID+`/act/restart-clean"]`)),
		chromedp.WaitVisible(chromedp.CSS("#reason")), shot("confirm-restart-clean"),
		chromedp.SendKeys(chromedp.CSS("#reason"), "deploy fault cleared"), chromedp.Submit(chromedp.CSS("#reason")),
		chromedp.WaitVisible(chromedp.CSS("#run-status")), shot("run-live"))
	stages := watchLive(t, c.ctx, "completed", 40*time.Second)
	if len(stages) < 2 {
		t.Errorf("the page showed the stages %v on the way: no live progress seen", stages)
	}
	do(t, c.ctx, shot("run-completed"))
	if got := c.actionLinks(); len(got) != 0 {
		t.Errorf("a completed run offers %v", got)
	}
}

// softReset starts a soft reset of gpu-001 (a tenant's residue on it)
// from its node's confirm page and reads the evidence report when it
// completes: a table of the checks (the tenant's user removed, its
// processes killed, the one holding GPU memory among them) and one row
// per GPU with its memory before and after.
func (c *consoleRun) softReset() {
	t := c.t
	in := c.w.sim.residue("gpu-001", fakehost.Residue{User: "tenant1", Process: true, GPUMemoryMiB: 4096, ScratchFile: true})
	do(t, c.ctx, chromedp.Navigate(c.base+"/console/nodes/"+c.active.NodeID), chromedp.WaitVisible(chromedp.CSS("#runs")),
		chromedp.Click(chromedp.CSS(`a[href$="/decommission"]`)), chromedp.WaitVisible(chromedp.CSS("#reason")),
		chromedp.SetValue(chromedp.CSS("#storage_cleanup"), "all"), shot("confirm-decommission"))
	if s := text(t, c.ctx, "main"); !strings.Contains(s, "soft_reset") || !strings.Contains(s, "validate_clean") {
		t.Fatalf("the decommission confirm page shows:\n%s", s)
	}
	do(t, c.ctx, chromedp.SendKeys(chromedp.CSS("#reason"), "tenant left"), chromedp.Submit(chromedp.CSS("#reason")),
		chromedp.WaitVisible(chromedp.CSS("#run-status")))
	watchLive(t, c.ctx, "completed", 40*time.Second)
	do(t, c.ctx, chromedp.WaitVisible(chromedp.CSS("#evidence")), shot("decommission-report"))
	report := text(t, c.ctx, "#main")
	for _, want := range []string{"node.gpu_scrub: passed", "node.validate_clean: passed", "allocation.revoke_user: passed",
		"users_removed", "tenant1", "processes_killed", "nvidia 7", "0 → 0 MiB"} {
		if !strings.Contains(report, want) {
			t.Errorf("the evidence report lacks %q:\n%s", want, report)
		}
	}
	for _, pid := range in.PIDs {
		if !strings.Contains(report, fmt.Sprint(pid)) {
			t.Errorf("the evidence report does not name the tenant's process %d", pid)
		}
	}
	if r := c.w.sim.hostResidue("gpu-001"); !r.Clean {
		t.Errorf("residue left on gpu-001: %+v", r.Report)
	}
}

// readLists opens the list pages; the audit log names both reasons and
// no refused form.
func (c *consoleRun) readLists() {
	t := c.t
	for _, p := range []string{"batches", "drift", "decommissions", "audit"} {
		do(t, c.ctx, chromedp.Navigate(c.base+"/console/"+p), chromedp.WaitVisible(chromedp.CSS("main")), shot(p))
	}
	s := text(t, c.ctx, "main")
	if !strings.Contains(s, "deploy fault cleared") || !strings.Contains(s, "tenant left") || strings.Contains(s, "forged") {
		t.Errorf("the audit page shows:\n%s", s)
	}
}
