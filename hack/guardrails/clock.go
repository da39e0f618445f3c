package guardrails

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// WallClockFree are the packages whose non-test code reads and waits on
// time only through an injected clockwork.Clock (or a Now func fed from
// one), so tests drive them on a fake clock. Left out: the stores (bolt,
// dqlite), and the agent API, whose long poll is timed against its
// connection's write deadline, which is wall-clock time.
var WallClockFree = []string{"daemon/runner/...", "daemon/workflow/...", "daemon/feed/...", "daemon/reconcile/...",
	"daemon/maas/...", "daemon/api/admin/...", "daemon/api/connguard/...", "daemon/pki/...", "daemon/evidence/...",
	"daemon/admintoken/...", "daemon/console/...", "daemon/cli/...", "daemon/outbox/...", "daemon/secrets/...",
	"daemon/notifyfwd/...", "daemon/bridge/...", "daemon/metrics/...", "agent/...", "ipmi/...", "internal/sdnotify/..."}

// wallClock are the functions of package time that read or wait on the
// wall clock.
var wallClock = map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
	"AfterFunc": true, "NewTimer": true, "NewTicker": true, "Tick": true}

// CheckClocks returns every declaration of a Clock interface anywhere in
// the module (tests included: the module has one clock,
// github.com/jonboulle/clockwork) and every use of the wall clock in the
// non-test files of the free packages.
func CheckClocks(fsys fs.FS, free []string) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return skipDir(fsys, p)
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		found, err := clockFindings(fsys, p, !strings.HasSuffix(p, "_test.go") && matchAny(free, path.Dir(p)))
		out = append(out, found...)
		return err
	})
	return out, err
}

func clockFindings(fsys fs.FS, p string, free bool) ([]string, error) {
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("guardrails: %w", err)
	}
	timeName := ""
	for _, im := range f.Imports {
		if ip, _ := strconv.Unquote(im.Path.Value); ip == "time" {
			timeName = "time"
			if im.Name != nil {
				timeName = im.Name.Name
			}
		}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if _, ok := n.Type.(*ast.InterfaceType); ok && strings.HasSuffix(n.Name.Name, "Clock") {
				out = append(out, fmt.Sprintf("%s: declares interface %s; use clockwork.Clock", fset.Position(n.Pos()), n.Name.Name))
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && free && timeName != "" && x.Name == timeName && wallClock[n.Sel.Name] {
				out = append(out, fmt.Sprintf("%s: time.%s reads the wall clock; use the injected clock", fset.Position(n.Pos()), n.Sel.Name))
			}
		}
		return true
	})
	return out, nil
}
