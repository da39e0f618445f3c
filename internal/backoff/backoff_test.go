package backoff_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

func TestDelayDoublesThenCaps(t *testing.T) {
	p := backoff.Policy{Initial: time.Second, Max: 5 * time.Second}
	tests := []struct {
		name string
		u    float64
		want []time.Duration // retries 1..6
	}{
		{"least jitter", 0, []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 2500 * time.Millisecond, 2500 * time.Millisecond, 2500 * time.Millisecond}},
		{"middle", 0.5, []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 3750 * time.Millisecond, 3750 * time.Millisecond, 3750 * time.Millisecond}},
		{"u of 1 is the cap", 1, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second}},
		{"u out of range is clamped", 7, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []time.Duration
			for n := 1; n <= 6; n++ {
				got = append(got, p.Delay(n, tt.u))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("delays (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStepNeverOverflowsPastTheCap(t *testing.T) {
	p := backoff.Policy{Initial: time.Second, Max: 10 * time.Minute}
	for _, n := range []int{-3, 0, 1, 64, 1000, 1 << 30} {
		if d := p.Step(n); d <= 0 || d > p.Max {
			t.Errorf("Step(%d) = %v, want within (0, %v]", n, d, p.Max)
		}
	}
}

// With the default randomness the delays vary, and stay in the band.
func TestSequenceDefaultRandomnessVariesWithinTheBand(t *testing.T) {
	s := backoff.Sequence{Policy: backoff.Policy{Initial: time.Second, Max: 8 * time.Second}}
	seen := map[time.Duration]bool{}
	for range 50 {
		s.Reset()
		d := s.Next()
		if d < 500*time.Millisecond || d >= time.Second {
			t.Fatalf("first delay %v, want within [0.5s, 1s)", d)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Fatalf("50 first delays were all %v: no jitter", s.Delay(1, 0.5))
	}
}

func TestSequenceGrowsCapsAndResets(t *testing.T) {
	s := backoff.Sequence{Policy: backoff.Policy{Initial: time.Second, Max: 8 * time.Second},
		Rand: func() float64 { return 0 }}
	var got []time.Duration
	for range 6 {
		got = append(got, s.Next())
	}
	s.Reset()
	got = append(got, s.Next())
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second,
		500 * time.Millisecond}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delays (-want +got):\n%s", diff)
	}
}
