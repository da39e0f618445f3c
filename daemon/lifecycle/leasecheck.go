package lifecycle

import "context"

// leaseCheckKey keys the lease check in a context.
type leaseCheckKey struct{}

// WithLeaseCheck returns ctx carrying check, which reports whether the
// site lease that the caller acts under still holds (nil) or has lapsed
// (an error). The runner sets it on every stage step.
func WithLeaseCheck(ctx context.Context, check func() error) context.Context {
	return context.WithValue(ctx, leaseCheckKey{}, check)
}

// CheckLease is what a port calls immediately before a side effect (a
// MAAS write, a BMC power action, an agent task): an error when ctx is
// done or when the lease that ctx was issued under has lapsed by the
// holder's own clock, even if no timer has cancelled ctx yet (a process
// that was paused past its lease acts on nothing when it resumes).
func CheckLease(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		if cause := context.Cause(ctx); cause != nil && cause != err {
			return cause
		}
		return err
	}
	if check, ok := ctx.Value(leaseCheckKey{}).(func() error); ok {
		return check()
	}
	return nil
}
