package maas

import "errors"

// elements calls elem for each element of the top-level array (i counts
// them) and then checks that only white space follows. A null is an
// array with no elements; an empty body is no value at all, and no
// error. elem may be called again for the same i, after an attempt that
// ran past the window's end: it must then start that element afresh.
// Syntax errors carry offsets into the whole body.
func (s *jstream) elements(elem func(r *jreader, i int) error) (err error) {
	defer func() { s.rebase(err) }()
	c, end, err := s.peek()
	switch {
	case err != nil:
		return err
	case end && s.base+s.r.i == 0:
		return nil
	case !end && c == 'n':
		err = s.value(func() error { return s.r.literal("null") })
	case !end && c == '[':
		s.r.i++
		err = s.items(elem)
	default:
		return s.r.fail("expected '['")
	}
	if err != nil {
		return err
	}
	return s.end()
}

// items reads the array's elements and its closing bracket.
func (s *jstream) items(elem func(r *jreader, i int) error) error {
	if c, end, err := s.peek(); err != nil || !end && c == ']' {
		if err == nil {
			s.r.i++
		}
		return err
	}
	for i := 0; ; i++ {
		if err := s.ahead(); err != nil {
			return err
		}
		if err := s.value(func() error { return elem(&s.r, i) }); err != nil {
			return err
		}
		c, end, err := s.peek()
		switch {
		case err != nil:
			return err
		case !end && c == ',':
			s.r.i++
		case !end && c == ']':
			s.r.i++
			return nil
		default:
			return s.r.fail("expected ',' or ']'")
		}
	}
}

// ahead refills the window when less than s.low of it is left, so that
// most elements are decoded once.
func (s *jstream) ahead() error {
	if s.eof || len(s.r.b)-s.r.i >= s.low {
		return nil
	}
	return s.more(s.r.i)
}

// rebase turns a syntax error's offset in the window into one in the
// body.
func (s *jstream) rebase(err error) {
	var je *jsonError
	if errors.As(err, &je) {
		je.off += s.base
	}
}
