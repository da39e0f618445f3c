package guardrails

import (
	"os"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestOneClock(t *testing.T) {
	found, err := CheckClocks(os.DirFS(moduleRoot(t)), WallClockFree)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// TestCheckClocksCatchesBadTree declares clocks and reads the wall clock
// where each is allowed and where it is not.
func TestCheckClocksCatchesBadTree(t *testing.T) {
	tree := fstest.MapFS{
		"go.mod":                 {Data: []byte("module " + mod + "\n\ngo 1.26\n")},
		"ipmi/c.go":              {Data: []byte("package ipmi\n\nimport \"time\"\n\ntype Clock interface{ Now() time.Time }\n")},
		"agent/a_test.go":        {Data: []byte("package agent\n\ntype fakeClock interface{}\n\ntype Clock struct{}\n")},
		"daemon/feed/f.go":       {Data: []byte("package feed\n\nimport t \"time\"\n\nvar now = t.Now\n\nfunc f() { t.Sleep(t.Second) }\n")},
		"daemon/feed/f_test.go":  {Data: []byte("package feed\n\nimport \"time\"\n\nvar start = time.Now()\n")},
		"daemon/store/bolt/m.go": {Data: []byte("package bolt\n\nimport \"time\"\n\nvar start = time.Now()\n")},
		"daemon/runner/r.go":     {Data: []byte("package runner\n\nimport \"time\"\n\nvar d = time.Second\n\nfunc g(c interface{ Now() time.Time }) time.Time { return c.Now() }\n")},
	}
	got, err := CheckClocks(tree, WallClockFree)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"agent/a_test.go:3:6: declares interface fakeClock; use clockwork.Clock",
		"daemon/feed/f.go:5:11: time.Now reads the wall clock; use the injected clock",
		"daemon/feed/f.go:7:12: time.Sleep reads the wall clock; use the injected clock",
		"ipmi/c.go:5:6: declares interface Clock; use clockwork.Clock",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CheckClocks() (-want +got):\n%s", diff)
	}
}
