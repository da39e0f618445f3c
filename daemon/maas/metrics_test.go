package maas

import (
	"net/http"
	"testing"
)

func TestOpLabelsCarryNoIDs(t *testing.T) {
	cases := []struct {
		r    request
		want string
	}{
		{request{method: http.MethodGet, path: "machines/"}, "GET machines"},
		{request{method: http.MethodGet, path: "machines/abc123/"}, "GET machine"},
		{request{method: http.MethodPost, path: "machines/abc123/", maasOp: "deploy"}, "POST machine deploy"},
		{request{method: http.MethodGet, path: "nodes/abc123/blockdevices/"}, "GET machine blockdevices"},
		{request{method: http.MethodGet, path: "events/", maasOp: "query"}, "GET events query"},
		{request{method: http.MethodGet, path: "version/"}, "GET version"},
	}
	for _, c := range cases {
		if got := opLabel(c.r); got != c.want {
			t.Errorf("opLabel(%s %s op=%s) = %q, want %q", c.r.method, c.r.path, c.r.maasOp, got, c.want)
		}
	}
}
