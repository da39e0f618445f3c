package config

import (
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gopkg.in/yaml.v3"
)

// conffile is the config file the maas-sidecar package installs.
const conffile = "../../deb/maas-sidecar/config.yaml"

// setting matches a commented-out setting ("# key:", "#   key: v", a
// list entry "#   - key: v") or a comment nested in one ("#   # why");
// prose comments do not match.
var setting = regexp.MustCompile(`^# ( *(- )?[a-z0-9_]+:( |$)| +# )`)

// uncomment returns the conffile with every setting uncommented.
func uncomment(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(conffile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if setting.MatchString(l) {
			lines[i] = strings.TrimPrefix(l, "# ")
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// TestConffileIsTheDefaults: the packaged file loads to the defaults as
// shipped (all commented) and with every setting uncommented, so its
// values are the defaults and not a second copy that drifts.
func TestConffileIsTheDefaults(t *testing.T) {
	got, err := Load(conffile, true)
	if err != nil {
		t.Fatalf("the conffile as shipped: %v", err)
	}
	if diff := cmp.Diff(Default(), got); diff != "" {
		t.Errorf("the conffile as shipped is not the defaults (-want +got):\n%s", diff)
	}
	got, err = Parse(uncomment(t))
	if err != nil {
		t.Fatalf("the conffile uncommented: %v", err)
	}
	// An empty list ([]) in the file stands for the default nil list.
	if diff := cmp.Diff(Default(), got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("the conffile uncommented is not the defaults (-want +got):\n%s", diff)
	}
}

// TestConffileListsEveryKey: every key of Config is in the conffile.
func TestConffileListsEveryKey(t *testing.T) {
	var doc map[string]any
	if err := yaml.Unmarshal(uncomment(t), &doc); err != nil {
		t.Fatal(err)
	}
	var inFile []string
	walkMap("", doc, &inFile)
	var inStruct []string
	walkType("", reflect.TypeOf(Config{}), &inStruct)
	sort.Strings(inFile)
	sort.Strings(inStruct)
	if diff := cmp.Diff(inStruct, inFile); diff != "" {
		t.Errorf("keys of Config (-) missing from the conffile, or (+) not in Config:\n%s", diff)
	}
}

func walkMap(prefix string, m map[string]any, out *[]string) {
	for k, v := range m {
		// An empty mapping ({}) is a key whose default is an empty map
		// (agent.packages), not a section.
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			walkMap(prefix+k+".", sub, out)
			continue
		}
		*out = append(*out, prefix+k)
	}
}

func walkType(prefix string, typ reflect.Type, out *[]string) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if key == "-" || key == "" {
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			walkType(prefix+key+".", f.Type, out)
			continue
		}
		*out = append(*out, prefix+key)
	}
}
