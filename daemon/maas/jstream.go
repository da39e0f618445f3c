package maas

import (
	"bytes"
	"errors"
	"io"
)

// jstream feeds a JSON answer to a jreader as it arrives: the reader's
// bytes are a window on the body, refilled between the elements of the
// top-level array. Only the element being decoded is kept, so a list of
// any length takes one window (grown only for an element larger than
// it). The window is refilled before an element when little of it is
// left; an element that still fails where the window ends (one longer
// than what was left) is decoded again over a longer window. jreader
// itself is unchanged and checks as strictly.
type jstream struct {
	src   io.Reader // the body, cut one byte past limit
	limit int
	low   int // refill before an element when less than this is left
	buf   []byte
	r     jreader // r.b is buf[:filled]
	base  int     // body offset of buf[0]
	eof   bool
	err   error // a read failure (not io.EOF): the request failed, not the JSON
}

// errTooLarge is an answer longer than the client accepts.
var errTooLarge = errors.New("answer over the size limit")

func newJstream(body io.Reader, limit, window int) *jstream {
	return &jstream{src: &io.LimitedReader{R: body, N: int64(limit) + 1}, limit: limit, low: window / 16,
		buf: make([]byte, max(window, 1))}
}

// more keeps the window from keep on and fills the buffer after it,
// doubling the buffer when the kept part fills it.
func (s *jstream) more(keep int) error {
	n := copy(s.buf, s.r.b[keep:])
	s.base += keep
	s.r.i -= keep
	if n == len(s.buf) {
		grown := make([]byte, 2*n)
		copy(grown, s.buf)
		s.buf = grown
	}
	m, err := s.fill(s.buf[n:])
	s.r.b = s.buf[:n+m]
	switch {
	case s.base+n+m > s.limit:
		return errTooLarge
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.err = err
		return err
	}
	return nil
}

// fill reads into p until it is full or the body fails or ends.
func (s *jstream) fill(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := s.src.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// peek is jreader's peek over the whole body; end is true when only
// white space is left.
func (s *jstream) peek() (c byte, end bool, err error) {
	for {
		c := s.r.peek()
		if s.r.i < len(s.r.b) {
			return c, false, nil
		}
		if s.eof {
			return 0, true, nil
		}
		if err := s.more(s.r.i); err != nil {
			return 0, false, err
		}
	}
}

// value runs read from the current offset; while it fails where the
// window ends, it runs again from the same offset over a longer window.
func (s *jstream) value(read func() error) error {
	start := s.r.i
	for {
		err := read()
		if err == nil || s.eof || !s.cut(err) {
			return err
		}
		if err := s.more(start); err != nil {
			return err
		}
		start, s.r.i = 0, 0
	}
}

// cut reports whether err may be the window's end cutting a value short:
// a syntax error followed by nothing but the bytes of one token (jreader
// fails a short literal, number or escape at its start, anything else
// where the bytes end).
func (s *jstream) cut(err error) bool {
	var je *jsonError
	return errors.As(err, &je) && je.off <= len(s.r.b) && !bytes.ContainsAny(s.r.b[je.off:], " \t\r\n,:{}[]\"")
}

// end fails unless only white space is left of the body.
func (s *jstream) end() error {
	if _, end, err := s.peek(); err != nil || end {
		return err
	}
	return s.r.fail("data after the top-level value")
}
