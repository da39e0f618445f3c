package guardrails

import (
	"fmt"
	"strings"
)

// Violation is one broken rule, printable as a test failure.
type Violation struct {
	File   string
	Import string
	Why    string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s imports %s: %s", v.File, v.Import, v.Why)
}

// CheckImports applies rules to pkgs of module and returns every violation.
func CheckImports(module string, pkgs []Package, rules []Rule) []Violation {
	var out []Violation
	for _, p := range pkgs {
		for _, r := range rules {
			if !match(r.From, p.Dir) {
				continue
			}
			for _, im := range p.Imports {
				if breaks(module, r, im.Path) {
					out = append(out, Violation{File: im.File, Import: im.Path, Why: r.Why})
				}
			}
		}
	}
	return out
}

// CheckDocs returns the directories of packages without a package doc comment.
func CheckDocs(pkgs []Package) []string {
	var out []string
	for _, p := range pkgs {
		if !p.HasDoc {
			out = append(out, p.Dir)
		}
	}
	return out
}

func breaks(module string, r Rule, imp string) bool {
	if r.StdlibOnly && !isStdlib(imp) {
		return true
	}
	rel, internal := relative(module, imp)
	if !internal {
		return false
	}
	if r.ModuleOnly != nil && !matchAny(r.ModuleOnly, rel) {
		return true
	}
	return matchAny(r.Forbid, rel)
}

// isStdlib reports whether imp is a standard library path: its first
// element has no dot (cgo's "C" is not the standard library).
func isStdlib(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return imp != "C" && !strings.Contains(first, ".")
}

func relative(module, imp string) (string, bool) {
	if imp == module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(imp, module+"/")
	return rel, ok
}

func match(pattern, dir string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return dir == base || strings.HasPrefix(dir, base+"/")
	}
	return dir == pattern
}

func matchAny(patterns []string, dir string) bool {
	for _, p := range patterns {
		if match(p, dir) {
			return true
		}
	}
	return false
}
