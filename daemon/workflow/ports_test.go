package workflow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSessionHoldsNarrowPorts: a stage's session holds each MAAS port it
// calls on its own, never the MAAS union.
func TestSessionHoldsNarrowPorts(t *testing.T) {
	union := reflect.TypeOf((*MAAS)(nil)).Elem()
	st := reflect.TypeOf(session{})
	ports := 0
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		if f.Type == union {
			t.Errorf("session.%s is the MAAS union; hold the narrow port the stages call", f.Name)
		}
		if f.Type.Kind() == reflect.Interface {
			ports++
			if !union.Implements(f.Type) {
				t.Errorf("session.%s (%s) is not a MAAS port", f.Name, f.Type)
			}
		}
	}
	if ports == 0 {
		t.Error("session holds no MAAS port")
	}
}

// TestNoStructHoldsTheMAASUnion: no struct of the package (a stage's
// session or any other) has a field of the MAAS union type; the union is
// only what a Connector returns.
func TestNoStructHoldsTheMAASUnion(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			s, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fld := range s.Fields.List {
				if id, ok := fld.Type.(*ast.Ident); ok && id.Name == "MAAS" {
					t.Errorf("%s: a struct field has the MAAS union type", fset.Position(fld.Pos()))
				}
			}
			return true
		})
	}
}
