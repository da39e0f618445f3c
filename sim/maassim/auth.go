package maassim

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const timestampWindow = 300 * time.Second

var oauthRequired = []string{"oauth_consumer_key", "oauth_token", "oauth_signature",
	"oauth_signature_method", "oauth_timestamp", "oauth_nonce"}

// principal is who signed a request: the admin user, the non-admin user
// (admin false, machine nil) or a machine token.
type principal struct {
	admin   bool
	machine *machine
}

// adminOnly is what MAAS answers a non-admin for an admin-only call
// (MAASAPIForbidden, 403 text).
func adminOnly(c *call) *apiError {
	if c.who.admin {
		return nil
	}
	return forbidden("This method is reserved for admin users.")
}

// parseOAuth reads an "Authorization: OAuth k="v", ..." header; values are
// percent-decoded and realm is ignored. ok is false when it is not OAuth.
func parseOAuth(h string) (map[string]string, bool) {
	rest, ok := strings.CutPrefix(h, "OAuth ")
	if !ok {
		return nil, false
	}
	out := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		if uv, err := url.QueryUnescape(strings.Trim(v, `"`)); err == nil {
			out[k] = uv
		}
	}
	return out, true
}

// authenticateLocked checks a request's OAuth PLAINTEXT signature as
// MAAS's MAASAPIAuthentication does, consuming its nonce.
func (s *Sim) authenticateLocked(r *http.Request) (principal, *apiError) {
	p, ok := parseOAuth(r.Header.Get("Authorization"))
	if !ok {
		return principal{}, errorf(http.StatusUnauthorized, "Authorization Error: Invalid API key.")
	}
	var missing []string
	for _, k := range oauthRequired {
		if p[k] == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return principal{}, badRequest("Bad Request: Missing OAuth parameters: %s", strings.Join(missing, ", "))
	}
	if v, ok := p["oauth_version"]; ok && v != "1.0" {
		return principal{}, errorf(http.StatusUnauthorized, "Authorization Error: OAuth version %s not supported.", v)
	}
	who, secret, aerr := s.lookupToken(p["oauth_consumer_key"], p["oauth_token"])
	if aerr != nil {
		return principal{}, aerr
	}
	if aerr := s.checkTimestamp(p["oauth_timestamp"]); aerr != nil {
		return principal{}, aerr
	}
	sig := p["oauth_signature"]
	if p["oauth_signature_method"] != "PLAINTEXT" || subtle.ConstantTimeCompare([]byte(sig), []byte("&"+secret)) != 1 {
		return principal{}, errorf(http.StatusUnauthorized, "Authorization Error: Invalid signature.")
	}
	nk := p["oauth_consumer_key"] + ":" + p["oauth_token"] + ":" + p["oauth_nonce"]
	if _, used := s.nonces[nk]; used {
		return principal{}, errorf(http.StatusUnauthorized, "Authorization Error: 'Nonce already used: %s'", p["oauth_nonce"])
	}
	s.nonces[nk] = s.now()
	s.nonceQ = append(s.nonceQ, usedNonce{key: nk, at: s.now()})
	s.pruneNonces()
	return who, nil
}

func (s *Sim) lookupToken(consumer, tok string) (principal, string, *apiError) {
	if consumer == s.key[0] {
		if tok != s.key[1] {
			return principal{}, "", errorf(http.StatusUnauthorized, "Authorization Error: 'Invalid access token: %s'", tok)
		}
		return principal{admin: true}, s.key[2], nil
	}
	if s.user[0] != "" && consumer == s.user[0] {
		if tok != s.user[1] {
			return principal{}, "", errorf(http.StatusUnauthorized, "Authorization Error: 'Invalid access token: %s'", tok)
		}
		return principal{}, s.user[2], nil
	}
	for _, m := range s.machines {
		if m.token != nil && m.token.consumerKey == consumer && m.token.key == tok {
			return principal{machine: m}, m.token.secret, nil
		}
	}
	return principal{}, "", errorf(http.StatusUnauthorized, "Authorization Error: Invalid API key.")
}

func (s *Sim) checkTimestamp(ts string) *apiError {
	n, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return badRequest("Bad Request: invalid oauth_timestamp")
	}
	now := s.now().Unix()
	if d := now - n; d > int64(timestampWindow/time.Second) || -d > int64(timestampWindow/time.Second) {
		return errorf(http.StatusUnauthorized, "Authorization Error: Expired timestamp: given %d and now %d has a greater difference than threshold 300", n, now)
	}
	return nil
}

// usedNonce is one consumed nonce and when it was used.
type usedNonce struct {
	key string
	at  time.Time
}

// pruneNonces forgets nonces older than twice the timestamp window, as
// MAAS's nonce clean-up does (every 300 s it deletes the nonces older than
// the previous run: each is kept 5 to 10 minutes); a replay of one fails
// the timestamp check instead. Nonces are used in time order, so only the
// oldest are looked at: the cost per request does not grow with the
// number kept, which is bounded by the request rate over 10 minutes.
func (s *Sim) pruneNonces() {
	cut := s.now().Add(-2 * timestampWindow)
	i := 0
	for ; i < len(s.nonceQ) && s.nonceQ[i].at.Before(cut); i++ {
		delete(s.nonces, s.nonceQ[i].key)
	}
	s.nonceQ = s.nonceQ[i:] // append's next growth lets the forgotten prefix go
}
