package notifyfwd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
)

// outcome is what one POST came to.
type outcome int

const (
	delivered     outcome = iota // 2xx, or 409: the daemon has this id already
	retry                        // worth another attempt: transport, 5xx, 429, no secret
	misconfigured                // retried, but only a fix of the forwarder's settings helps: 401, 404, 405, 3xx
	dropped                      // refused for good (400, 413, ...): retrying the same bytes cannot help
)

// post sends the hints h once, signed with the secret read now: one hint
// as an object, several as an array, the signature over the whole body.
func (f *forwarder) post(ctx context.Context, h []hint) (outcome, error) {
	var body []byte
	var err error
	if len(h) == 1 {
		body, err = json.Marshal(h[0])
	} else {
		body, err = json.Marshal(h)
	}
	if err != nil {
		return dropped, fmt.Errorf("encode hint: %w", err)
	}
	secret, err := f.cfg.Secret(ctx)
	if err != nil {
		return retry, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.target, bytes.NewReader(body))
	if err != nil {
		return dropped, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(feed.SignatureHeader, feed.Sign(secret, f.cfg.Clock.Now().Unix(), body))
	resp, err := f.client.Do(req)
	if err != nil {
		return retry, fmt.Errorf("post to the daemon: %w", err)
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	return classify(f.cfg.URL, resp, bytes.TrimSpace(snippet))
}

// classify judges the daemon's answer to a POST to u (the URL as
// configured: it names no secret).
func classify(u string, resp *http.Response, snippet []byte) (outcome, error) {
	code, status := resp.StatusCode, resp.Status
	switch {
	case code/100 == 2 || code == http.StatusConflict:
		return delivered, nil
	case code == http.StatusUnauthorized:
		return misconfigured, fmt.Errorf("the daemon refused the webhook (%s: %s): the secret file does not hold the site's "+
			"webhook secret, the site id is wrong, or the clocks are more than 5 minutes apart", status, snippet)
	case code == http.StatusNotFound || code == http.StatusMethodNotAllowed:
		return misconfigured, fmt.Errorf("%s is not the daemon's webhook route (%s): --url must be the daemon's "+
			"/api/v1/webhooks/maas, directly or through its proxy", u, status)
	case code/100 == 3:
		return misconfigured, fmt.Errorf("%s answered %s to %q: a webhook POST is not redirected, "+
			"set --url to the address that takes it", u, status, resp.Header.Get("Location"))
	case code/100 == 5 || code == http.StatusTooManyRequests:
		return retry, fmt.Errorf("the daemon answered %s: %s", status, snippet)
	}
	return dropped, fmt.Errorf("the daemon refused the webhook for good (%s: %s)", status, snippet)
}

// noRedirect keeps the client from following a redirect: a webhook POST
// that is redirected is a wrong URL, reported as such.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// errNoURL is Run's answer to a configuration it cannot use.
var errNoURL = errors.New("notifyfwd: a webhook URL and a secret are required")

// webhookURL is u with ?site_id=site added to its query.
func webhookURL(u, site string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	q := p.Query()
	q.Set("site_id", site)
	p.RawQuery = q.Encode()
	return p.String(), nil
}
