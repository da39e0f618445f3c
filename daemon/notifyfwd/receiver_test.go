package notifyfwd

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
)

// receiver stands in for the daemon's webhook route: it checks the site
// and the signature with the daemon's own scheme (feed.Sign, within 5
// minutes), decodes the body (one hint or an array) strictly, answers from a script (then 202),
// and keeps what it took.
type receiver struct {
	mu      sync.Mutex
	secret  string
	site    string
	script  []int // answers to give first, in order
	hints   []hint
	posts   []int // each POST's number of hints
	answers []int
	now     func() time.Time
}

func (rv *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rv.mu.Lock()
	defer rv.mu.Unlock()
	code := rv.judge(r, body)
	rv.answers = append(rv.answers, code)
	if code/100 == 3 {
		w.Header().Set("Location", "/elsewhere")
	}
	w.WriteHeader(code)
	_, _ = w.Write([]byte(http.StatusText(code)))
}

func (rv *receiver) judge(r *http.Request, body []byte) int {
	sig := r.Header.Get(feed.SignatureHeader)
	ts, _, _ := strings.Cut(strings.TrimPrefix(sig, "t="), ",")
	t, _ := strconv.ParseInt(ts, 10, 64)
	switch {
	case r.Method != http.MethodPost || r.URL.Query().Get("site_id") != rv.site:
		return http.StatusBadRequest
	case sig == "" || sig != feed.Sign([]byte(rv.secret), t, body) || rv.now().Sub(time.Unix(t, 0)).Abs() > 5*time.Minute:
		return http.StatusUnauthorized
	}
	hs, ok := decodeBody(body)
	if !ok {
		return http.StatusBadRequest
	}
	rv.posts = append(rv.posts, len(hs))
	if len(rv.script) > 0 {
		code := rv.script[0]
		rv.script = rv.script[1:]
		if code/100 == 2 {
			rv.hints = append(rv.hints, hs...)
		}
		return code
	}
	rv.hints = append(rv.hints, hs...)
	return http.StatusAccepted
}

// decodeBody reads one hint (an object) or a batch (an array), strictly.
func decodeBody(body []byte) ([]hint, bool) {
	var hs []hint
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	var err error
	if strings.HasPrefix(string(body), "[") {
		err = dec.Decode(&hs)
	} else {
		hs = make([]hint, 1)
		err = dec.Decode(&hs[0])
	}
	if err != nil || len(hs) == 0 || len(hs) > feed.MaxHintsPerPost {
		return nil, false
	}
	for _, h := range hs {
		if !systemID.MatchString(h.SystemID) || h.ID == "" {
			return nil, false
		}
	}
	return hs, true
}

func (rv *receiver) took() ([]hint, []int) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return append([]hint(nil), rv.hints...), append([]int(nil), rv.answers...)
}
