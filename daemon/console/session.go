package console

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Session bounds: each token holds at most maxPerToken sessions (a new
// sign-in ends that token's oldest), and the table at most maxSessions
// (a sign-in past it is refused: one token holder cannot end others').
const (
	maxPerToken = 16
	maxSessions = 1024
)

// errFull is a sign-in refused because the session table is full.
var errFull = errors.New("the console holds its maximum of signed-in sessions; try again when some expire or sign out")

// session is one signed-in browser: the token it signed in with (memory
// only), the token's name and role, and the CSRF token of its forms.
type session struct {
	id      string
	token   lifecycle.Secret
	tokenID string // the admin token's id, for the per-token bound
	name    string
	role    lifecycle.Role
	csrf    string
	expires time.Time
}

// sessions is the in-memory session table.
type sessions struct {
	mu   sync.Mutex
	byID map[string]*session
}

func newSessions() *sessions { return &sessions{byID: map[string]*session{}} }

// add stores s under a fresh random id and returns it: it ends the
// token's oldest session when the token holds maxPerToken, and refuses
// (errFull) when the table holds maxSessions of other tokens.
func (t *sessions) add(s session, now time.Time) (*session, error) {
	s.id, s.csrf = randomID(), randomID()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.prune(now)
	var oldest *session
	mine := 0
	for _, o := range t.byID {
		if o.tokenID == s.tokenID {
			mine++
			if oldest == nil || o.expires.Before(oldest.expires) {
				oldest = o
			}
		}
	}
	switch {
	case mine >= maxPerToken:
		delete(t.byID, oldest.id)
	case len(t.byID) >= maxSessions:
		return nil, errFull
	}
	t.byID[s.id] = &s
	return &s, nil
}

// get returns the unexpired session id names, or nil.
func (t *sessions) get(id string, now time.Time) *session {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.byID[id]
	if s == nil || !now.Before(s.expires) {
		delete(t.byID, id)
		return nil
	}
	c := *s
	return &c
}

// drop ends session id (sign out, or a token the API no longer accepts).
func (t *sessions) drop(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.byID, id)
}

func (t *sessions) prune(now time.Time) {
	for id, s := range t.byID {
		if !now.Before(s.expires) {
			delete(t.byID, id)
		}
	}
}

// randomID is 32 random bytes, base64url.
func randomID() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}
