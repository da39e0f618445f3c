package lifecycle

import "errors"

// ErrNoSpace marks a write that failed because the filesystem holding
// the state is full (ENOSPC, EDQUOT). Such an error is unavailable: the
// write succeeds unchanged once space returns; the admin API answers it
// 503 with the problem code no_space.
var ErrNoSpace = errors.New("no space left on device")
