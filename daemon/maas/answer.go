package maas

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const (
	// maxAnswer is the longest answer body the client reads (the list of
	// 5,000 machines is about 63 MB); a longer one is refused.
	maxAnswer = 256 << 20
	// streamWindow is the buffer a streamed answer is decoded through (a
	// shorter one for an answer whose Content-Length is less).
	streamWindow = 1 << 20
)

// streamDecoder is an answer that decodes its own JSON from the body as
// it arrives (large ones, such as the machine list, that encoding/json
// is too slow for and that need not be held whole).
type streamDecoder interface{ decodeStream(s *jstream) error }

// read decodes a successful answer's body into out: a streamDecoder as
// the body arrives, anything else with encoding/json once it is read
// whole (the body is read, and dropped, when out is nil). readErr is a
// failure to read the body; decodeErr an answer refused. size is the
// body's length when known, else -1.
func (c *Client) read(op string, body io.Reader, size int64, out any) (decodeErr, readErr error) {
	if d, ok := out.(streamDecoder); ok {
		window := streamWindow
		if size >= 0 && size < streamWindow {
			window = int(size) + 1 // one more byte to see the end
		}
		return decodeStream(op, body, c.limit, window, d)
	}
	data, err := io.ReadAll(io.LimitReader(body, int64(c.limit)+1))
	switch {
	case err != nil:
		return nil, err
	case len(data) > c.limit:
		return tooLarge(op, c.limit), nil
	case out == nil || len(data) == 0:
		return nil, nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return unexpectedJSON(op, len(data), err), nil
	}
	return nil, nil
}

// decodeStream runs d over body through a window of the given size.
// After a refusal it reads the rest of the body (up to limit) to say how
// long the answer was.
func decodeStream(op string, body io.Reader, limit, window int, d streamDecoder) (decodeErr, readErr error) {
	s := newJstream(body, limit, window)
	err := d.decodeStream(s)
	switch {
	case s.err != nil:
		return nil, s.err
	case err == nil:
		return nil, nil
	case errors.Is(err, errTooLarge):
		return tooLarge(op, limit), nil
	}
	rest, _ := io.Copy(io.Discard, s.src)
	if n := s.base + len(s.r.b) + int(rest); n <= limit {
		return unexpectedJSON(op, n, err), nil
	}
	return tooLarge(op, limit), nil
}

func unexpectedJSON(op string, n int, err error) error {
	return &lifecycle.Error{Code: lifecycle.CodeInternal, Op: "maas: " + op,
		Msg: fmt.Sprintf("MAAS answered unexpected JSON (%d bytes)", n), Err: err}
}

func tooLarge(op string, limit int) error {
	return &lifecycle.Error{Code: lifecycle.CodeInternal, Op: "maas: " + op,
		Msg: fmt.Sprintf("MAAS answered more than %d bytes, the most the client reads", limit)}
}
