//go:build e2e && browser

package system

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The console's browser tests (make test-browser): headless Chromium,
// Debian's chromium package, driven with chromedp against the real daemon
// of an e2e world. They fail, never skip, without chromium.

// chrome starts headless Chromium and returns a browser context bounded
// by limit.
func chrome(t *testing.T, limit time.Duration) context.Context {
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
	ctx, cancelT := context.WithTimeout(bctx, limit)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	return ctx
}

// shot saves a full-page screenshot as name.png in the folder that
// CONSOLE_SCREENSHOTS names (make screenshots: docs/console); nothing
// when it is unset.
func shot(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		dir := os.Getenv("CONSOLE_SCREENSHOTS")
		if dir == "" {
			return nil
		}
		png, err := chromedp.FullScreenshot(100)(ctx, tg) // 100: PNG; below it, JPEG
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	})
}

// do runs the steps and fails the test on the first error.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
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

// evalJS evaluates a JavaScript expression (awaiting a promise).
func evalJS[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// signIn signs in on the login page with token and waits for the fleet.
func signIn(t *testing.T, ctx context.Context, base, token string, shots ...string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(base+"/console/fleet"), chromedp.WaitVisible(chromedp.CSS("#token")))
	for _, s := range shots {
		do(t, ctx, shot(s))
	}
	do(t, ctx, chromedp.SendKeys(chromedp.CSS("#token"), token), chromedp.Submit(chromedp.CSS("#token")),
		chromedp.WaitVisible(chromedp.CSS("#nodes")))
}

// signOut signs out and checks that the console asks to sign in again.
func signOut(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	do(t, ctx, chromedp.Click(chromedp.CSS(".signout button")), chromedp.WaitVisible(chromedp.CSS("#token")),
		chromedp.Navigate(base+"/console/fleet"), chromedp.WaitVisible(chromedp.CSS("#token")))
}

// watchLive marks the page, then reads #run-status every 100 ms until
// it shows want, and returns the stages the page showed on the way. It
// fails the test when the page was reloaded or navigated (the mark is
// gone): live.js must refresh it in place.
func watchLive(t *testing.T, ctx context.Context, want string, limit time.Duration) []string {
	t.Helper()
	evalJS[bool](t, ctx, `window.liveMark = true`)
	var stages []string
	deadline := time.Now().Add(limit)
	for {
		st := evalJS[[]string](t, ctx, `[document.getElementById("run-status").textContent,
			document.getElementById("run-stage").textContent, String(window.liveMark === true)]`)
		if st[2] != "true" {
			t.Fatal("the run page was reloaded: live progress must not need one")
		}
		if len(stages) == 0 || stages[len(stages)-1] != st[1] {
			stages = append(stages, st[1])
		}
		if st[0] == want {
			return stages
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run page shows %s at %v after %v, want %s", st[0], stages, limit, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
