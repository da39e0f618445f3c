package feed

import "errors"

// machineError is a machine the feed could not read from MAAS.
type machineError struct {
	SystemID string
	Err      error
}

func (e *machineError) Error() string { return "read machine " + e.SystemID + ": " + e.Err.Error() }
func (e *machineError) Unwrap() error { return e.Err }

// logFailure logs what one round of a loop came to, once, at the top of
// the loop: each machine that could not be read on its own line under
// its MAAS system id, and anything else on one line.
func (f *Feed) logFailure(siteID, source string, err error) {
	var rest []error
	for _, e := range leaves(err) {
		var me *machineError
		if errors.As(e, &me) {
			f.log.Warn("feed: machine not read", "site", siteID, "source", source, "system_id", me.SystemID, "err", me.Err)
			continue
		}
		rest = append(rest, e)
	}
	if len(rest) > 0 {
		f.log.Warn("feed "+source+" failed", "site", siteID, "err", errors.Join(rest...))
	}
}

// leaves splits errors joined with errors.Join, at any depth.
func leaves(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, leaves(e)...)
	}
	return out
}
