//go:build browser

package console_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// chrome starts headless Chromium (Debian's chromium package; the test
// fails without it) and returns a browser context bounded by 60 s.
func chrome(t *testing.T) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is not installed (hack/install-test-deps.sh installs it): %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		t.Fatal(err)
	}
	ctx, cancelT := context.WithTimeout(bctx, 60*time.Second)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	return ctx
}

// shot saves a full-page screenshot as docs/console/name.png when
// CONSOLE_SCREENSHOTS names that folder (make screenshots).
func shot(t *testing.T, name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		dir := os.Getenv("CONSOLE_SCREENSHOTS")
		if dir == "" {
			return nil
		}
		png, err := chromedp.FullScreenshot(100)(ctx, tg) // 100: PNG; below it, JPEG
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	})
}

func run(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// text is the text of the first element the CSS selector sel matches.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// eval evaluates a JavaScript expression (awaiting a promise) to an int.
func eval(t *testing.T, ctx context.Context, js string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBrowserOperator: an operator signs in, sees the fleet, opens the
// failed run, retries it with a reason, watches it finish without a
// reload, reads the audit log and signs out.
func TestBrowserOperator(t *testing.T) {
	retryDelay = 3 * time.Second
	t.Cleanup(func() { retryDelay = 0 })
	e := newEnv(t, false)
	id := e.onboard("bad-gpu-01", "batch-1", lifecycle.JobFailedManualIntervention)
	e.onboard("gpu-02", "batch-2", lifecycle.JobCompleted)
	ctx := chrome(t)
	u := e.srv.URL
	run(t, ctx, chromedp.Navigate(u+"/console/fleet"), chromedp.WaitVisible(chromedp.CSS("#token")), shot(t, "login"),
		chromedp.SendKeys(chromedp.CSS("#token"), e.tokens[lifecycle.RoleOperator]),
		chromedp.Submit(chromedp.CSS("#token")), chromedp.WaitVisible(chromedp.CSS("#nodes")), shot(t, "fleet"))
	if s := text(t, ctx, "main"); !strings.Contains(s, "bad-gpu-01") || !strings.Contains(s, "Nodes by site and state (2)") {
		t.Fatalf("the fleet page shows:\n%s", s)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/console/nodes/node-bad-gpu-01"]`)), chromedp.WaitVisible(chromedp.CSS("#runs")), shot(t, "node"),
		chromedp.Click(chromedp.CSS(`a[href="/console/runs/`+id+`"]`)), chromedp.WaitVisible(chromedp.CSS("#failure")), shot(t, "run-failed"))
	if s := text(t, ctx, "#main"); !strings.Contains(s, "hardware_mismatch") || !strings.Contains(s, "no BOSS disk") {
		t.Fatalf("the failed run's page shows:\n%s", s)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/console/runs/`+id+`/act/retry"]`)), chromedp.WaitVisible(chromedp.CSS("#reason")),
		shot(t, "confirm-retry"), chromedp.SendKeys(chromedp.CSS("#reason"), "BOSS disk reseated"), chromedp.Submit(chromedp.CSS("#reason")),
		chromedp.WaitVisible(chromedp.CSS("#run-status")))
	if s := text(t, ctx, "#run-status"); s != "running" && s != "pending" {
		t.Fatalf("after the retry the run is %q, want it running", s)
	}
	run(t, ctx, shot(t, "run-live"))
	// live.js refreshes the page in place: no navigation from here on.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("run-status").textContent === "completed"`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the run page did not show the run completed without a reload: %v", err)
	}
	run(t, ctx, shot(t, "run-completed"))
	for _, p := range []string{"batches", "drift", "decommissions", "audit"} {
		run(t, ctx, chromedp.Navigate(u+"/console/"+p), chromedp.WaitVisible(chromedp.CSS("main")), shot(t, p))
	}
	if s := text(t, ctx, "main"); !strings.Contains(s, "BOSS disk reseated") || !strings.Contains(s, "token:operator:tok-b") {
		t.Fatalf("the audit page shows:\n%s", s)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(".signout button")), chromedp.WaitVisible(chromedp.CSS("#token")),
		chromedp.Navigate(u+"/console/fleet"), chromedp.WaitVisible(chromedp.CSS("#token")))
}

// TestBrowserViewerAndForgery: a viewer sees no action buttons and its
// hand-made form is refused; an operator's form without the CSRF token
// is refused with 403 too.
func TestBrowserViewerAndForgery(t *testing.T) {
	e := newEnv(t, false)
	id := e.onboard("bad-gpu-01", "", lifecycle.JobFailedManualIntervention)
	ctx := chrome(t)
	u := e.srv.URL
	signIn := func(role lifecycle.Role) {
		run(t, ctx, chromedp.Navigate(u+"/console/login"), chromedp.WaitVisible(chromedp.CSS("#token")),
			chromedp.SendKeys(chromedp.CSS("#token"), e.tokens[role]), chromedp.Submit(chromedp.CSS("#token")),
			chromedp.WaitVisible(chromedp.CSS("#nodes")))
	}
	// forge posts a form built in the page (as another site's page would),
	// with or without the page's own CSRF token, and returns the status.
	forge := func(withCSRF bool) int {
		js := `fetch("/console/runs/` + id + `/act/retry", {method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"},
			body: "reason=forged" + (` + map[bool]string{true: "true", false: "false"}[withCSRF] + ` ? "&csrf=" + document.querySelector('input[name=csrf]').value : "")}).then(r => r.status)`
		return eval(t, ctx, js)
	}
	signIn(lifecycle.RoleViewer)
	run(t, ctx, chromedp.Navigate(u+"/console/runs/"+id), chromedp.WaitVisible(chromedp.CSS("#failure")), shot(t, "run-viewer"))
	buttons := eval(t, ctx, `document.querySelectorAll('a[href*="/act/"], a[href$="/decommission"]').length`)
	if buttons != 0 {
		t.Fatalf("a viewer sees %d action buttons", buttons)
	}
	if s := forge(true); s != 403 {
		t.Fatalf("a viewer's retry form: %d, want 403", s)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(".signout button")), chromedp.WaitVisible(chromedp.CSS("#token")))
	signIn(lifecycle.RoleOperator)
	run(t, ctx, chromedp.Navigate(u+"/console/runs/"+id), chromedp.WaitVisible(chromedp.CSS("#failure")))
	if s := forge(false); s != 403 {
		t.Fatalf("an operator's form without the CSRF token: %d, want 403", s)
	}
	e.waitRun(id, lifecycle.JobFailedManualIntervention)
	if entries, _ := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{}); len(entries) != 0 {
		t.Fatalf("a refused form was acted on: %+v", entries)
	}
}
