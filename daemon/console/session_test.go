package console

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestSessionsPerToken: a token's 17th sign-in ends that token's oldest
// session and no other token's.
func TestSessionsPerToken(t *testing.T) {
	tab, now := newSessions(), time.Unix(1_700_000_000, 0)
	other, err := tab.add(session{tokenID: "other", expires: now.Add(time.Hour)}, now)
	if err != nil {
		t.Fatal(err)
	}
	var mine []*session
	for i := range maxPerToken + 1 {
		s, err := tab.add(session{tokenID: "mine", expires: now.Add(2*time.Hour + time.Duration(i)*time.Second)}, now)
		if err != nil {
			t.Fatalf("sign-in %d: %v", i, err)
		}
		mine = append(mine, s)
	}
	if tab.get(mine[0].id, now) != nil {
		t.Error("the token's oldest session outlived its 17th sign-in")
	}
	for _, s := range append(mine[1:], other) {
		if tab.get(s.id, now) == nil {
			t.Errorf("session %s of token %s was ended", s.id[:6], s.tokenID)
		}
	}
}

// TestSessionsFull: with the table full, a new token's sign-in is
// refused and every held session stays.
func TestSessionsFull(t *testing.T) {
	tab, now := newSessions(), time.Unix(1_700_000_000, 0)
	var held []*session
	for i := range maxSessions {
		s, err := tab.add(session{tokenID: fmt.Sprint("tok-", i/maxPerToken), expires: now.Add(time.Hour)}, now)
		if err != nil {
			t.Fatalf("sign-in %d: %v", i, err)
		}
		held = append(held, s)
	}
	if _, err := tab.add(session{tokenID: "newcomer", expires: now.Add(time.Hour)}, now); !errors.Is(err, errFull) {
		t.Fatalf("a sign-in past the cap: %v, want errFull", err)
	}
	for _, s := range held {
		if tab.get(s.id, now) == nil {
			t.Fatalf("a refused sign-in ended session %s", s.id[:6])
		}
	}
	if _, err := tab.add(session{tokenID: "newcomer", expires: now.Add(time.Hour)}, now.Add(2*time.Hour)); err != nil {
		t.Fatalf("after the sessions expired a sign-in is still refused: %v", err)
	}
}
