package cloudinit

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"strings"
	"testing"
)

// Secrets in the fixture, each distinct so a leak can be traced.
const (
	testPassword    = "deploy-PLAINTEXT-pw-7f3a"
	testToken       = "enroll-TOKEN-5c1e9b"
	testConsumerKey = "maasCONSUMERkey91"
	testTokenKey    = "maasTOKENkey42"
	testTokenSecret = "maasTOKENsecret77"
)

// fixedSalt is a salt source that always gives the same salt.
func fixedSalt() io.Reader { return bytes.NewReader(bytes.Repeat([]byte("salt"), 4)) }

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// baseParams is a valid node with no optional layer.
func baseParams(t testing.TB) Params {
	t.Helper()
	return Params{
		NodeID:     "node-0001",
		DeployUser: DeployUser{Name: "hpcadmin", Password: testPassword},
		Agent: Agent{
			PackageURL:       "https://packages.example.net/gpuaas-node-agent_1.2.3_amd64.deb",
			APIURL:           "https://sidecar.region1.example.net:5291",
			EnrollmentToken:  testToken,
			CABundlePEM:      readTestdata(t, "ca.pem"),
			SigningPublicKey: readTestdata(t, "signing.pub.pem"),
		},
		HardwareSync: HardwareSync{
			RackURL: "http://10.20.0.2:5248/MAAS", SystemID: "x7rkfa",
			ConsumerKey: testConsumerKey, TokenKey: testTokenKey, TokenSecret: testTokenSecret,
		},
	}
}

// fullParams adds every optional layer to baseParams.
func fullParams(t testing.TB) Params {
	p := baseParams(t)
	p.SiteBundle = &SiteBundle{
		URL: "https://infra.example.net/bundles/site-boot-2025.06.1.sh", Version: "2025.06.1",
		SHA256: strings.Repeat("ab", 32),
	}
	p.Agent.PackageSHA256 = strings.Repeat("cd", 32)
	p.HardwareSync.Interval = "30m"
	p.Policy = Policy{InitShareDisks: true, EnablePhase2RoCE: true}
	p.UpstreamDNS = []string{"10.20.0.53", "2001:db8::53"}
	p.RoCE = []RoCEAssignment{
		{Interface: "enp62s0np0", IPv4CIDR: "172.30.9.63/31"},
		{Interface: "enp28s0np0", IPv4CIDR: "172.30.9.61/31"},
		{Interface: "enp29s0np0", IPv4CIDR: "172.29.1.219/31"},
	}
	return p
}

func render(t *testing.T, p Params) []byte {
	t.Helper()
	out, err := Renderer{Rand: fixedSalt()}.Render(p)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	return out
}

// mimePart is one decoded part of rendered user-data.
type mimePart struct {
	Name, ContentType, MergeType string
	Body                         string
}

// splitMIME parses rendered user-data back into its parts.
func splitMIME(t testing.TB, ud []byte) []mimePart {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(ud))
	if err != nil {
		t.Fatalf("read MIME: %v", err)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" {
		t.Fatalf("top-level Content-Type %q (%v), want multipart/mixed", mt, err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	var parts []mimePart
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return parts
		}
		if err != nil {
			t.Fatalf("next part: %v", err)
		}
		body, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		parts = append(parts, mimePart{p.FileName(), ct, p.Header.Get("Merge-Type"), string(body)})
	}
}
