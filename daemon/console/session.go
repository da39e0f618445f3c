package console

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxSessions bounds the sessions held in memory; the oldest goes first.
const maxSessions = 1024

// session is one signed-in browser: the token it signed in with (memory
// only), the token's name and role, and the CSRF token of its forms.
type session struct {
	id      string
	token   lifecycle.Secret
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

// add stores s under a fresh random id and returns it.
func (t *sessions) add(s session, now time.Time) *session {
	s.id, s.csrf = randomID(), randomID()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.prune(now)
	if len(t.byID) >= maxSessions {
		var oldest *session
		for _, o := range t.byID {
			if oldest == nil || o.expires.Before(oldest.expires) {
				oldest = o
			}
		}
		delete(t.byID, oldest.id)
	}
	t.byID[s.id] = &s
	return &s
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
