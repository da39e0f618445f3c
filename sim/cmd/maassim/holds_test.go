package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseHolds(t *testing.T) {
	cases := []struct {
		in   string
		want map[string]time.Duration
		err  bool
	}{
		{"", map[string]time.Duration{}, false},
		{"deploy=30s", map[string]time.Duration{"deploy": 30 * time.Second}, false},
		{"deploy=30s, erase=1m,power_off=500ms", map[string]time.Duration{"deploy": 30 * time.Second,
			"erase": time.Minute, "power_off": 500 * time.Millisecond}, false},
		{"deploy", nil, true},
		{"=30s", nil, true},
		{"deploy=soon", nil, true},
		{"deploy=-1s", nil, true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseHolds(c.in)
			if (err != nil) != c.err {
				t.Fatalf("err %v, want error %v", err, c.err)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestHoldAndEraseFlags(t *testing.T) {
	c := parseFlags([]string{"--api-key", "a:b:c", "--hold", "deploy=2s", "--erase-quick", "30s", "--erase-full", "0s"})
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	d := c.durations()
	if d.QuickErase != 30*time.Second || d.DiskErasing != 10*time.Minute || d.SecureErase != 4*time.Minute {
		t.Fatalf("durations %+v", d)
	}
	c.hold = "deploy:2s"
	if err := c.validate(); err == nil || !strings.Contains(err.Error(), "--hold") {
		t.Fatalf("bad --hold accepted: %v", err)
	}
}
