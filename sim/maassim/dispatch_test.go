package maassim_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestOpDispatchThreeForms(t *testing.T) {
	st := newSite(t, 3)
	ids := st.ids(t)
	form := url.Values{"distro_series": {"jammy"}}
	cases := []struct {
		name, path string
		body       url.Values
		sid        string
	}{
		{"query", "/MAAS/api/2.0/machines/" + ids[0] + "/?op=deploy", form, ids[0]},
		{"form body", "/MAAS/api/2.0/machines/" + ids[1] + "/", url.Values{"op": {"deploy"}, "distro_series": {"jammy"}}, ids[1]},
		{"op- path", "/MAAS/api/2.0/machines/" + ids[2] + "/op-deploy", form, ids[2]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r := st.call(t, "POST", c.path, c.body); r.code != 200 {
				t.Fatalf("%d %s", r.code, r.body)
			}
			if got := st.statusName(t, c.sid); got != "Deploying" {
				t.Fatalf("status %q, want Deploying", got)
			}
		})
	}
	t.Run("GET op in path", func(t *testing.T) {
		r := st.call(t, "GET", "/MAAS/api/2.0/users/op-whoami", nil)
		if r.code != 200 || !strings.Contains(r.body, `"username":"admin"`) {
			t.Fatalf("%d %s", r.code, r.body)
		}
	})
}

func TestUnknownOpsAndEndpoints(t *testing.T) {
	st := newSite(t, 1)
	sid := st.ids(t)[0]
	cases := []struct {
		method, path string
		code         int
		body         string
	}{
		{"POST", "/MAAS/api/2.0/machines/" + sid + "/?op=foo", 400, "Unrecognised signature: method=POST op=foo"},
		{"GET", "/MAAS/api/2.0/machines/" + sid + "/?op=deploy", 400, "Unrecognised signature: method=GET op=deploy"},
		{"POST", "/MAAS/api/2.0/machines/" + sid + "/", 400, "Unrecognised signature: method=POST op=None"},
		{"GET", "/MAAS/api/2.0/machines/nope/", 404, "No Machine matches the given query."},
		{"GET", "/MAAS/api/2.0/nodes/nope/interfaces/", 404, "No Node matches the given query."},
		{"GET", "/MAAS/api/2.0/nosuch/", 404, "Unknown API endpoint: /MAAS/api/2.0/nosuch/."},
		{"GET", "/MAAS/api/1.0/nodes/", 410, "The 1.0 API is no longer available"},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			r := st.call(t, c.method, c.path, nil)
			if r.code != c.code || !strings.Contains(r.body, c.body) {
				t.Fatalf("got %d %q, want %d %q", r.code, r.body, c.code, c.body)
			}
		})
	}
	t.Run("DELETE is 204", func(t *testing.T) {
		if r := st.call(t, "DELETE", "/MAAS/api/2.0/machines/"+sid+"/", nil); r.code != 204 || r.body != "" {
			t.Fatalf("%d %q", r.code, r.body)
		}
	})
}

func TestOAuthChecks(t *testing.T) {
	st := newSite(t, 0)
	now := time.Now().Unix()
	path := "/MAAS/api/2.0/users/?op=whoami"
	replayed := oauth(testKey, now, "replayed-nonce")
	if r := st.send(t, "GET", path, nil, replayed); r.code != 200 {
		t.Fatalf("first use: %d %s", r.code, r.body)
	}
	cases := []struct {
		name, auth string
		code       int
		body       string
	}{
		{"nonce replay", replayed, 401, "Nonce already used: replayed-nonce"},
		{"stale timestamp", oauth(testKey, now-301, "n-stale"), 401, "Expired timestamp"},
		{"future timestamp", oauth(testKey, now+400, "n-future"), 401, "Expired timestamp"},
		{"bad consumer", oauth("xx:tk1:ts-secret-1", now, "n-c"), 401, "Invalid API key."},
		{"bad token", oauth("ck1:zz:ts-secret-1", now, "n-t"), 401, "Invalid access token: zz"},
		{"bad secret", oauth("ck1:tk1:wrong", now, "n-s"), 401, "Invalid signature."},
		{"missing param", `OAuth oauth_consumer_key="ck1"`, 400, "Missing OAuth parameters"},
		{"no credentials", "", 401, "Authorization Error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := st.send(t, "GET", path, nil, c.auth)
			if r.code != c.code || !strings.Contains(r.body, c.body) {
				t.Fatalf("got %d %q, want %d %q", r.code, r.body, c.code, c.body)
			}
			if c.code == 401 && !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "OAuth") {
				t.Fatalf("WWW-Authenticate = %q", r.header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("anonymous machines list", func(t *testing.T) {
		r := st.send(t, "GET", "/MAAS/api/2.0/machines/", nil, "")
		if r.code != 400 || r.body != "Unrecognised signature: method=GET op=None" {
			t.Fatalf("%d %q", r.code, r.body)
		}
	})
	t.Run("anonymous version", func(t *testing.T) {
		r := st.send(t, "GET", "/MAAS/api/2.0/version/", nil, "")
		if r.code != 200 || !strings.Contains(r.body, `"version":"3.6.5"`) {
			t.Fatalf("%d %q", r.code, r.body)
		}
	})
	_ = fmt.Sprint
}
