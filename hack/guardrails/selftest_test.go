package guardrails

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

const mod = "example.com/m"

func file(pkg string, imports ...string) *fstest.MapFile {
	src := "// Package " + pkg + " is documented.\npackage " + pkg + "\n\nimport (\n"
	for _, im := range imports {
		src += "\t_ \"" + im + "\"\n"
	}
	return &fstest.MapFile{Data: []byte(src + ")\n")}
}

// badTree breaks every kind of rule once, next to imports that are allowed.
var badTree = fstest.MapFS{
	"go.mod":                          {Data: []byte("module " + mod + "\n\ngo 1.26\n")},
	"daemon/lifecycle/ok.go":          file("lifecycle", "context", "net/http"),
	"daemon/lifecycle/bad.go":         file("lifecycle", "github.com/google/uuid"),
	"daemon/lifecycle/tagged.go":      {Data: []byte("//go:build ignore\n\n// Package lifecycle x.\npackage lifecycle\n\nimport _ \"" + mod + "/daemon/api\"\n")},
	"daemon/lifecycle/bad_test.go":    file("lifecycle", "github.com/google/go-cmp/cmp"),
	"daemon/api/api.go":               file("api", mod+"/daemon/lifecycle", mod+"/daemon/store/bolt", "github.com/gorilla/mux"),
	"daemon/api/api_test.go":          file("api", mod+"/sim/maassim"),
	"daemon/runner/r.go":              file("runner", mod+"/ipmi/sim"),
	"daemon/maas/client.go":           file("maas", mod+"/daemon/lifecycle", mod+"/daemon/secrets"),
	"sim/maassim/sim.go":              file("maassim", mod+"/daemon/maas"),
	"daemon/store/storetest/s.go":     file("storetest", mod+"/daemon/lifecycle", mod+"/daemon/api"),
	"agent/loop.go":                   file("agent", mod+"/agent/wire", mod+"/daemon/lifecycle"),
	"agent/wire/wire.go":              file("wire", "crypto/ed25519", "golang.org/x/crypto/ssh"),
	"daemon/undocumented/u.go":        {Data: []byte("package undocumented\n")},
	"daemon/undocumented/u_test.go":   file("undocumented"),
	"hack/vaultdev/go.mod":            {Data: []byte("module " + mod + "/hack/vaultdev\n")},
	"hack/vaultdev/main.go":           {Data: []byte("package main\n\nimport _ \"" + mod + "/daemon/secrets\"\n")},
	"daemon/api/testdata/x.go":        {Data: []byte("package x\n")},
	"daemon/cmd/maas-sidecar/main.go": file("main", mod+"/daemon/store/bolt", mod+"/daemon/maas"),
}

func TestCheckerCatchesBadTree(t *testing.T) {
	module, pkgs, err := Load(badTree)
	if err != nil {
		t.Fatalf("Load() = %v", err)
	}
	if module != mod {
		t.Fatalf("module = %q, want %q", module, mod)
	}
	want := []Violation{
		{"agent/loop.go", mod + "/daemon/lifecycle", "the agent never imports the daemon"},
		{"agent/wire/wire.go", "golang.org/x/crypto/ssh", "the wire types import only the standard library"},
		{"daemon/api/api.go", mod + "/daemon/store/bolt", "the core declares interfaces instead of importing adapters"},
		{"daemon/lifecycle/bad.go", "github.com/google/uuid", "the domain imports only the standard library"},
		{"daemon/lifecycle/tagged.go", mod + "/daemon/api", "the domain imports only the standard library"},
		{"daemon/maas/client.go", mod + "/daemon/secrets", "adapters never import another adapter"},
		{"daemon/runner/r.go", mod + "/ipmi/sim", "the core declares interfaces instead of importing adapters"},
		{"daemon/store/storetest/s.go", mod + "/daemon/api", "the conformance suite sees only the store contract (the certificate ledger's included)"},
	}
	if d := cmp.Diff(want, CheckImports(module, pkgs, Rules)); d != "" {
		t.Errorf("import violations (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"daemon/undocumented"}, CheckDocs(pkgs)); d != "" {
		t.Errorf("undocumented packages (-want +got):\n%s", d)
	}
}

func TestPatterns(t *testing.T) {
	tests := []struct {
		pattern, dir string
		want         bool
	}{
		{"daemon/maas/...", "daemon/maas", true},
		{"daemon/maas/...", "daemon/maas/maassim", true},
		{"daemon/maas/...", "daemon/maasx", false},
		{"daemon/api", "daemon/api", true},
		{"daemon/api", "daemon/api/v1", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.dir, func(t *testing.T) {
			if got := match(tt.pattern, tt.dir); got != tt.want {
				t.Errorf("match(%q, %q) = %v, want %v", tt.pattern, tt.dir, got, tt.want)
			}
		})
	}
}
