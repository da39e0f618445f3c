package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// FuzzParse checks the config loader: a file is refused with an invalid
// error (a validation error names its key), or it validates, and a valid
// config written back as YAML parses to the same config and validates.
func FuzzParse(f *testing.F) {
	f.Add(uncomment(f))
	f.Add([]byte("admin_listen: 127.0.0.1:5290\nlog_level: debug\npoll_interval: 30s\n"))
	f.Add([]byte("store:\n  backend: dqlite\n  members: [10.0.0.1:9001, 10.0.0.2:9001]\n"))
	f.Add([]byte("skus:\n  - id: h100.80g.4gpu\n    gpus: 4\n"))
	f.Add([]byte("agent:\n  packages:\n    amd64: {package_url: https://x/a.deb, package_sha256: 00}\n"))
	f.Add([]byte("admin_listen: [1, 2]\n"))
	f.Add([]byte("nonsense: 1\n"))
	f.Add([]byte("poll_interval: -5m\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("---\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
				t.Fatalf("refusal is %v: %v", lifecycle.ErrorCode(err), err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) == "" {
				t.Fatalf("validation error names no key: %v", err)
			}
			return
		}
		out, err := yaml.Marshal(c)
		if err != nil {
			t.Fatalf("a valid config does not marshal: %v", err)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("a valid config written back is refused: %v\n%s", err, out)
		}
		if d := cmp.Diff(c, again, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("round trip (-parsed +again):\n%s", d)
		}
		if err := again.Validate(); err != nil {
			t.Fatalf("a valid config written back does not validate: %v", err)
		}
	})
}
