package guardrails

import (
	"bufio"
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Package is one directory of non-test Go files in the module.
type Package struct {
	Dir     string   // slash path relative to the module root; "." for the root
	Name    string   // package clause of the first file
	HasDoc  bool     // some non-test file carries a package doc comment
	Imports []Import // in file order, then source order
}

// Import is one import of one non-test file.
type Import struct {
	File string // slash path relative to the module root
	Path string // as written
}

// Load reads every package of the module rooted at fsys, skipping nested
// modules, testdata, vendor and directories starting with "." or "_". All
// files are parsed, whatever their build constraints. It returns the module
// path from go.mod and the packages sorted by Dir.
func Load(fsys fs.FS) (string, []Package, error) {
	module, err := modulePath(fsys)
	if err != nil {
		return "", nil, err
	}
	pkgs := map[string]*Package{}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return skipDir(fsys, p)
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		return addFile(fsys, p, pkgs)
	})
	if err != nil {
		return "", nil, err
	}
	out := make([]Package, 0, len(pkgs))
	for _, p := range pkgs {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return module, out, nil
}

func skipDir(fsys fs.FS, p string) error {
	if p == "." {
		return nil
	}
	base := path.Base(p)
	if base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
		return fs.SkipDir
	}
	if _, err := fs.Stat(fsys, path.Join(p, "go.mod")); err == nil {
		return fs.SkipDir // a nested module has its own rules
	}
	return nil
}

func addFile(fsys fs.FS, p string, pkgs map[string]*Package) error {
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return fmt.Errorf("guardrails: %w", err)
	}
	dir := path.Dir(p)
	pkg := pkgs[dir]
	if pkg == nil {
		pkg = &Package{Dir: dir, Name: f.Name.Name}
		pkgs[dir] = pkg
	}
	pkg.HasDoc = pkg.HasDoc || (f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "")
	for _, im := range f.Imports {
		ip, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			return fmt.Errorf("guardrails: %s: import %s: %w", p, im.Path.Value, err)
		}
		pkg.Imports = append(pkg.Imports, Import{File: p, Path: ip})
	}
	return nil
}

func modulePath(fsys fs.FS) (string, error) {
	b, err := fs.ReadFile(fsys, "go.mod")
	if err != nil {
		return "", fmt.Errorf("guardrails: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`), nil
		}
	}
	return "", fmt.Errorf("guardrails: go.mod has no module line")
}
