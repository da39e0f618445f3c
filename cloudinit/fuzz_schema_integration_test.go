//go:build integration

package cloudinit

import (
	"errors"
	"go/ast"
	"go/parser"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFuzzCorpusCloudInitSchema replays FuzzRender's committed corpus
// (testdata/fuzz/FuzzRender) through the real `cloud-init schema -c`: a
// payload the in-process schema check accepts, cloud-init accepts too.
func TestFuzzCorpusCloudInitSchema(t *testing.T) {
	bin, err := exec.LookPath("cloud-init")
	if err != nil {
		t.Fatalf("cloud-init is not installed (apt-get install cloud-init): %v", err)
	}
	files, _ := filepath.Glob("testdata/fuzz/FuzzRender/*")
	if len(files) == 0 {
		t.Fatal("no committed FuzzRender corpus")
	}
	base, dir, checked := fullParams(t), t.TempDir(), 0
	for _, file := range files {
		v := readCorpusFile(t, file)
		p := base
		p.NodeID, p.DeployUser.Name, p.Agent.PackageURL, p.Agent.APIURL = v[0].(string), v[1].(string), v[2].(string), v[3].(string)
		p.HardwareSync.RackURL, p.HardwareSync.SystemID, p.HardwareSync.Interval = v[4].(string), v[5].(string), v[6].(string)
		p.Policy = Policy{InitShareDisks: v[11].(bool), ShareFSType: v[7].(string), EnablePhase2RoCE: v[12].(bool)}
		p.RoCE, p.UpstreamDNS = []RoCEAssignment{{Interface: v[8].(string), IPv4CIDR: v[9].(string)}}, []string{v[10].(string)}
		ud, err := Renderer{Rand: fixedSalt()}.Render(p)
		if err != nil {
			continue
		}
		checkCloudConfig(t, ud)
		for _, part := range splitMIME(t, ud) {
			path := filepath.Join(dir, part.Name)
			if err := os.WriteFile(path, []byte(part.Body), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(bin, "schema", "-c", path).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "Valid cloud-config") {
				t.Errorf("%s: cloud-init schema -c %s: %v\n%s", filepath.Base(file), part.Name, err, out)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no corpus entry rendered")
	}
	t.Logf("%d of %d corpus entries rendered and checked", checked, len(files))
}

// readCorpusFile reads a Go fuzzing corpus file ("go test fuzz v1", then
// one Go literal a line: string, []byte, bool, int64...).
func readCorpusFile(t *testing.T, path string) []any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "go test fuzz v1" {
		t.Fatalf("%s: not a corpus file", path)
	}
	var out []any
	for _, l := range lines[1:] {
		v, err := corpusValue(l)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, l, err)
		}
		out = append(out, v)
	}
	return out
}

func corpusValue(line string) (any, error) {
	e, err := parser.ParseExpr(line)
	if err != nil {
		return nil, err
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, errors.New("want type(literal)")
	}
	var typ string
	switch f := call.Fun.(type) {
	case *ast.Ident:
		typ = f.Name
	case *ast.ArrayType:
		typ = "[]byte"
	}
	arg := call.Args[0]
	switch lit, isLit := arg.(*ast.BasicLit); {
	case typ == "bool":
		id, _ := arg.(*ast.Ident)
		if id == nil {
			return nil, errors.New("bad bool")
		}
		return id.Name == "true", nil
	case isLit && (typ == "string" || typ == "[]byte"):
		s, err := strconv.Unquote(lit.Value)
		if typ == "[]byte" {
			return []byte(s), err
		}
		return s, err
	}
	return nil, errors.New("unsupported corpus type " + typ)
}
