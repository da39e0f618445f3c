package cli_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cluster status on a bolt store says it is not clustered and lists the
// site's lease holder with its epoch.
func TestClusterStatusSingleStore(t *testing.T) {
	d := startDaemon(t)
	if _, err := d.store.ClaimLease(context.Background(), d.site, "test", time.Minute); err != nil {
		t.Fatal(err)
	}
	l, err := d.store.GetLease(context.Background(), d.site)
	d.must(err)
	r := d.cli("", "cluster", "status")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "the store is not clustered (backend bolt)") {
		t.Fatalf("output:\n%s\nwant the not-clustered line, a blank line, a header and one site", r.stdout)
	}
	f := strings.Fields(lines[3])
	if len(f) < 5 || f[0] != d.site || f[1] != "dc1" || f[2] != "test" || f[3] != strconv.FormatUint(l.Epoch, 10) {
		t.Errorf("site line %q, want %s dc1 test %d <expiry>", lines[3], d.site, l.Epoch)
	}
}
