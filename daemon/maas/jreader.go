package maas

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// jreader reads JSON from memory in one pass, checking it as strictly as
// encoding/json does while it skips what the caller does not ask for.
// It exists for large answers (the machine list), where encoding/json
// spent nearly all its time scanning the fields nobody reads, twice.
type jreader struct {
	b []byte
	i int
}

// jsonError is a syntax or type error at a byte offset of the answer.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

func (r *jreader) fail(msg string) error { return &jsonError{off: r.i, msg: msg} }

// peek skips white space and returns the next byte, 0 at the end.
func (r *jreader) peek() byte {
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// literal consumes the literal s (true, false or null).
func (r *jreader) literal(s string) error {
	if r.peek() != s[0] || len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		return r.fail("expected " + s)
	}
	r.i += len(s)
	return nil
}

// null consumes a null, if that is what comes next.
func (r *jreader) null() (bool, error) {
	if r.peek() != 'n' {
		return false, nil
	}
	return true, r.literal("null")
}

// object calls field for each member of an object, with the key; field
// must consume the value. A null is an object with no members.
func (r *jreader) object(field func(key []byte) error) error {
	if isNull, err := r.null(); isNull || err != nil {
		return err
	}
	return r.members('{', '}', func() error {
		key, err := r.key()
		if err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.fail("expected ':' after an object key")
		}
		r.i++
		return field(key)
	})
}

// array calls elem for each element of an array; elem must consume it.
// A null is an array with no elements.
func (r *jreader) array(elem func() error) error {
	if isNull, err := r.null(); isNull || err != nil {
		return err
	}
	return r.members('[', ']', elem)
}

func (r *jreader) members(open, closing byte, each func() error) error {
	if r.peek() != open {
		return r.fail(fmt.Sprintf("expected '%c'", open))
	}
	r.i++
	if r.peek() == closing {
		r.i++
		return nil
	}
	for {
		if err := each(); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.i++
		case closing:
			r.i++
			return nil
		default:
			return r.fail(fmt.Sprintf("expected ',' or '%c'", closing))
		}
	}
}

// key reads an object key; escaped keys are unescaped.
func (r *jreader) key() ([]byte, error) {
	start := r.i
	raw, plain, err := r.rawString()
	if err != nil || plain {
		return raw, err
	}
	var s string
	if err := json.Unmarshal(r.b[start:r.i], &s); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// str reads a string; a null is "".
func (r *jreader) str() (string, error) {
	if isNull, err := r.null(); isNull || err != nil {
		return "", err
	}
	start := r.i
	raw, plain, err := r.rawString()
	if err != nil {
		return "", err
	}
	if plain && utf8.Valid(raw) {
		return string(raw), nil
	}
	var s string // escapes or invalid UTF-8: encoding/json's rules
	err = json.Unmarshal(r.b[start:r.i], &s)
	return s, err
}
