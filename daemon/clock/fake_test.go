package clock

import (
	"testing"
	"time"
)

func TestFakeFiresDueTimersInOrder(t *testing.T) {
	c := NewFake(time.Unix(1000, 0))
	var got []int
	c.AfterFunc(3*time.Second, func() { got = append(got, 3) })
	c.AfterFunc(time.Second, func() { got = append(got, 1) })
	stopped := c.AfterFunc(2*time.Second, func() { got = append(got, 2) })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop must report only the first stop")
	}
	c.Advance(500 * time.Millisecond)
	if len(got) != 0 || c.Pending() != 2 {
		t.Fatalf("fired early: %v", got)
	}
	c.Advance(5 * time.Second)
	if len(got) != 2 || got[0] != 1 || got[1] != 3 || c.Pending() != 0 {
		t.Fatalf("fired %v", got)
	}
	if !c.Now().Equal(time.Unix(1005, 5e8)) {
		t.Fatalf("now = %v", c.Now())
	}
}
