package cloudinit

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// cloudConfigSchema is cloud-init's own schema of a cloud-config
// (testdata/schema-cloud-config-v1.json, copied from the Debian package
// cloud-init 22.4.2 of Debian 12 that `cloud-init schema` uses), compiled once.
var cloudConfigSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	f, err := os.Open("testdata/schema-cloud-config-v1.json")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	if err := c.AddResource("cloud-config.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("cloud-config.json")
})

// checkCloudConfig fails t unless every part of user-data ud is a
// text/cloud-config that cloud-init's schema accepts.
func checkCloudConfig(t testing.TB, ud []byte) {
	t.Helper()
	s, err := cloudConfigSchema()
	if err != nil {
		t.Fatalf("cloud-init schema: %v", err)
	}
	for _, p := range splitMIME(t, ud) {
		if p.ContentType != "text/cloud-config" || !strings.HasPrefix(p.Body, "#cloud-config\n") {
			t.Fatalf("%s is %s, not a cloud-config", p.Name, p.ContentType)
		}
		var v any
		if err := yaml.Unmarshal([]byte(p.Body), &v); err != nil {
			t.Fatalf("%s is not YAML: %v", p.Name, err)
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s does not convert to JSON: %v", p.Name, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err == nil {
			err = s.Validate(doc)
		}
		if err != nil {
			t.Fatalf("%s is not a valid cloud-config: %v\n%s", p.Name, err, p.Body)
		}
	}
}

// FuzzRender varies every text field a caller fills from its records
// (site, node, policy, RoCE, DNS): Render refuses with a *FieldError
// naming the field, or renders user-data whose every part cloud-init's
// schema accepts and that carries no plaintext deploy password.
func FuzzRender(f *testing.F) {
	full := fullParams(f)
	f.Add("node-0001", "hpcadmin", full.Agent.PackageURL, full.Agent.APIURL, "http://10.0.0.2:5248/MAAS", "abc123", "30m",
		"xfs", "enp28s0np0", "172.30.9.61/31", "10.20.0.53", true, true)
	f.Add("node-0001", "root", "http://x/a.deb", "http://sidecar:5291", "http://rack/MAAS", "ABC", "-1s", "zfs", "lo", "1.2.3.4/24", "::1/128", false, true)
	f.Add("n\n- x", "a: b", "https://x/\"a\".deb", "https://[::1]:5291", "http://rack:5248/MAAS/", "x y", "1h 30m", "", "e\tth0", "10.0.0.0/31", "2001:db8::53", true, false)
	base := fullParams(f)
	f.Fuzz(func(t *testing.T, node, user, pkg, api, rack, sid, interval, fs, iface, cidr, dns string, share, roce bool) {
		p := base
		p.NodeID, p.DeployUser.Name, p.Agent.PackageURL, p.Agent.APIURL = node, user, pkg, api
		p.HardwareSync.RackURL, p.HardwareSync.SystemID, p.HardwareSync.Interval = rack, sid, interval
		p.Policy = Policy{InitShareDisks: share, ShareFSType: fs, EnablePhase2RoCE: roce}
		p.RoCE = []RoCEAssignment{{Interface: iface, IPv4CIDR: cidr}}
		p.UpstreamDNS = []string{dns}
		ud, err := Renderer{Rand: fixedSalt()}.Render(p)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Fatalf("refusal %T names no field: %v", err, err)
			}
			return
		}
		if bytes.Contains(ud, []byte(testPassword)) {
			t.Fatal("the user-data carries the plaintext deploy password")
		}
		checkCloudConfig(t, ud)
	})
}

// TestCloudConfigSchemaRefuses: the in-process schema check is not a
// pass-through: a module given the wrong shape or an unknown key fails.
func TestCloudConfigSchemaRefuses(t *testing.T) {
	s, err := cloudConfigSchema()
	if err != nil {
		t.Fatal(err)
	}
	for doc, valid := range map[string]bool{
		`{"runcmd": [["echo", "hi"]], "write_files": [{"path": "/x", "permissions": "0600", "content": "y"}]}`: true,
		`{"write_files": "x"}`:        false,
		`{"users": [{"name": 5}]}`:    false,
		`{"ntp": {"enabled": "yes"}}`: false,
		`{"bootcmd": {"a": "b"}}`:     false,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Validate(v) == nil; got != valid {
			t.Errorf("%s: valid %v, want %v", doc, got, valid)
		}
	}
}
