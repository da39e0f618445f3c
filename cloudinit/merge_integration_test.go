//go:build integration

package cloudinit

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

type merged struct {
	Users      []string   `json:"users"`
	WriteFiles []string   `json:"write_files"`
	RunCmd     [][]string `json:"runcmd"`
}

// TestCloudInitMergesPartsInOrder merges each payload with cloud-init's own
// part handler and checks nothing is lost: the merged lists are every
// part's lists, appended in part order (the Merge-Type header's job).
func TestCloudInitMergesPartsInOrder(t *testing.T) {
	python := cloudInitPython(t)
	for name, p := range policyCases(t) {
		t.Run(name, func(t *testing.T) {
			ud := render(t, p)
			path := filepath.Join(t.TempDir(), "user-data")
			if err := os.WriteFile(path, ud, 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(python, "testdata/cloudinit_merge.py", path).Output()
			if err != nil {
				t.Fatalf("merge with cloud-init: %v", err)
			}
			var got merged
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if diff := cmp.Diff(concatenated(t, ud), got); diff != "" {
				t.Errorf("cloud-init's merge (-want +got):\n%s", diff)
			}
		})
	}
}

// concatenated is every part's lists appended in part order.
func concatenated(t *testing.T, ud []byte) merged {
	var m merged
	for _, part := range splitMIME(t, ud) {
		var cfg cloudConfig
		if err := yaml.Unmarshal([]byte(part.Body), &cfg); err != nil {
			t.Fatal(err)
		}
		for _, u := range cfg.Users {
			if s, ok := u.(string); ok {
				m.Users = append(m.Users, s)
			} else {
				m.Users = append(m.Users, u.(map[string]any)["name"].(string))
			}
		}
		for _, f := range cfg.WriteFiles {
			m.WriteFiles = append(m.WriteFiles, f.Path)
		}
		m.RunCmd = append(m.RunCmd, cfg.RunCmd...)
	}
	return m
}

// cloudInitPython is the interpreter named by cloud-init's shebang, the one
// that can import cloud-init's modules.
func cloudInitPython(t *testing.T) string {
	bin, err := exec.LookPath("cloud-init")
	if err != nil {
		t.Fatalf("cloud-init is not installed (apt-get install cloud-init): %v", err)
	}
	f, err := os.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	if !strings.HasPrefix(line, "#!/") {
		t.Fatalf("%s has no shebang", bin)
	}
	return strings.Fields(strings.TrimPrefix(line, "#!"))[0]
}
