package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestMAASCredentialsRedacted(t *testing.T) {
	const secret = "tok-Secret-77"
	p := HWSyncReseed{Endpoint: "http://rack:5248/MAAS/metadata/status/abc",
		MAASCredentials: MAASCredentials{ConsumerKey: "ck", TokenKey: "tk", TokenSecret: secret}}
	var out bytes.Buffer
	for _, v := range []any{p, p.MAASCredentials, &p} {
		fmt.Fprintf(&out, "%v %+v %#v %s\n", v, v, v, v)
		slog.New(slog.NewTextHandler(&out, nil)).Info("x", "v", v)
		slog.New(slog.NewJSONHandler(&out, nil)).Info("x", "v", v)
	}
	if strings.Contains(out.String(), secret) || !strings.Contains(out.String(), "[redacted]") {
		t.Fatalf("printed or logged credentials show the secret (or no redaction):\n%s", out.String())
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"endpoint":"http://rack:5248/MAAS/metadata/status/abc","consumer_key":"ck","token_key":"tk","token_secret":"` + secret + `"}`
	if string(b) != want {
		t.Fatalf("wire JSON = %s, want %s", b, want)
	}
}
