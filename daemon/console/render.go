package console

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticRoot embed.FS

// staticFS serves static/console.css and static/live.js.
var staticFS fs.FS = staticRoot

// view is what every page template gets.
type view struct {
	Title   string
	Session *session
	CSRF    string // the sign-in form's (the session's otherwise)
	Data    any
	Live    bool // the page refreshes itself while its run is not settled
}

// Signed is the signed-in token's name and role, for the header.
func (v view) Signed() string {
	if v.Session == nil {
		return ""
	}
	return v.Session.name + " (" + string(v.Session.role) + ")"
}

// Token is the CSRF token the page's forms carry.
func (v view) Token() string {
	if v.Session != nil {
		return v.Session.csrf
	}
	return v.CSRF
}

// CanAct says whether the page shows action buttons.
func (v view) CanAct() bool { return canAct(v.Session) }

var funcs = template.FuncMap{
	"when": func(t any) string {
		switch v := t.(type) {
		case time.Time:
			if v.IsZero() {
				return "—"
			}
			return v.UTC().Format("2006-01-02 15:04:05Z")
		case *time.Time:
			if v == nil {
				return "—"
			}
			return v.UTC().Format("2006-01-02 15:04:05Z")
		}
		return fmt.Sprint(t)
	},
	"deref": func(b *bool) bool { return b != nil && *b },
	"dur":   func(d time.Duration) string { return d.Round(100 * time.Millisecond).String() },
	"evidence": func(raw json.RawMessage) any {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return string(raw)
		}
		return v
	},
	"report": evidenceReport,
	"kind": func(v any) string {
		switch v.(type) {
		case map[string]any:
			return "map"
		case []any:
			return "list"
		}
		return "value"
	},
}

var pages = parsePages()

// parsePages parses every page with the layout; a page defines "content".
func parsePages() map[string]*template.Template {
	out := map[string]*template.Template{}
	names, _ := fs.Glob(templateFS, "templates/*.html")
	for _, n := range names {
		base := n[len("templates/") : len(n)-len(".html")]
		if base == "layout" || base == "evidence" {
			continue
		}
		out[base] = template.Must(template.New(base).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/evidence.html", n))
	}
	return out
}

// render writes page name with status; a template error is a 500.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	var b bytes.Buffer
	if err := pages[name].ExecuteTemplate(&b, "layout", v); err != nil {
		c.log.Error("console: a page did not render", "page", name, "err", err)
		http.Error(w, "the page did not render", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// failure is the error page's content.
type failure struct{ Heading, Detail string }

// fail shows an error page with status.
func (c *Console) fail(w http.ResponseWriter, r *http.Request, s *session, status int, heading, detail string) {
	c.render(w, r, status, "error", view{Title: heading, Session: s, Data: failure{heading, detail}})
}

// apiFail shows a refused admin API call with its status and detail; a
// token the API no longer accepts (revoked) ends the session.
func (c *Console) apiFail(w http.ResponseWriter, r *http.Request, s *session, err error) {
	var ae *adminclient.APIError
	if !errors.As(err, &ae) {
		c.log.Error("console: an admin API answer did not decode", "path", r.URL.Path, "err", err)
		c.fail(w, r, s, http.StatusInternalServerError, "Internal error", "the admin API's answer did not decode")
		return
	}
	if ae.Status == http.StatusUnauthorized {
		c.sessions.drop(s.id)
		http.SetCookie(w, c.cookie(r, sessionCookie, "", -1))
		s = nil
	}
	c.fail(w, r, s, ae.Status, ae.Title, ae.Detail)
}
