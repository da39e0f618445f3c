package maas

import (
	"encoding/binary"
	"math"
)

// rawString consumes a string and returns its bytes between the quotes;
// plain is false when it has escapes (checked, not resolved).
func (r *jreader) rawString() (raw []byte, plain bool, err error) {
	if r.peek() != '"' {
		return nil, false, r.fail("expected a string")
	}
	start, plain := r.i+1, true
	for j := start; j < len(r.b); j++ {
		j = plainRun(r.b, j)
		if j == len(r.b) {
			break
		}
		switch c := r.b[j]; {
		case c == '"':
			r.i = j + 1
			return r.b[start:j], plain, nil
		case c == '\\':
			plain = false
			n := escapeLen(r.b[j+1:])
			if n == 0 {
				r.i = j
				return nil, false, r.fail("invalid escape in a string")
			}
			j += n
		case c < 0x20:
			r.i = j
			return nil, false, r.fail("control character in a string")
		}
	}
	r.i = len(r.b)
	return nil, false, r.fail("unterminated string")
}

// plainRun returns the index of the first quote, backslash or control
// character in b from i on (len(b) when none), eight bytes at a time.
func plainRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q, bs := x^(ones*'"'), x^(ones*'\\')
		if ((q-ones)&^q|(bs-ones)&^bs|(x-ones*0x20)&^x)&highs != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// escapeLen is the length of a valid escape after its backslash, 0 when
// invalid.
func escapeLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch b[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1
	case 'u':
		if len(b) < 5 {
			return 0
		}
		for _, c := range b[1:5] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 5
	}
	return 0
}

// number consumes a number and returns its text.
func (r *jreader) number() ([]byte, error) {
	start, b := r.i, r.b
	i := start
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return nil, r.fail("invalid number")
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(b, i+1); b[i-1] == '.' {
			return nil, r.fail("invalid number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if j := digits(b, i); j > i {
			i = j
		} else {
			return nil, r.fail("invalid number")
		}
	}
	r.i = i
	return b[start:i], nil
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// int reads an integer; a null is 0. A fraction, an exponent or a value
// out of int64's range is an error, as encoding/json has it.
func (r *jreader) int() (int, error) {
	if isNull, err := r.null(); isNull || err != nil {
		return 0, err
	}
	at := r.i
	lit, err := r.number()
	if err != nil {
		return 0, err
	}
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	var n uint64
	for _, c := range lit {
		if c < '0' || c > '9' || n > (math.MaxInt64+1-uint64(c-'0'))/10 {
			return 0, &jsonError{off: at, msg: "number is not an integer in range"}
		}
		n = n*10 + uint64(c-'0')
	}
	if !neg && n > math.MaxInt64 {
		return 0, &jsonError{off: at, msg: "number is not an integer in range"}
	}
	if neg {
		return int(-int64(n)), nil
	}
	return int(n), nil
}

// boolean reads true or false; a null is false.
func (r *jreader) boolean() (bool, error) {
	switch r.peek() {
	case 't':
		return true, r.literal("true")
	case 'f':
		return false, r.literal("false")
	case 'n':
		return false, r.literal("null")
	}
	return false, r.fail("expected a boolean")
}

// skip consumes any value, checking its syntax.
func (r *jreader) skip() error {
	switch c := r.peek(); {
	case c == '"':
		_, _, err := r.rawString()
		return err
	case c == '{':
		return r.object(func([]byte) error { return r.skip() })
	case c == '[':
		return r.array(r.skip)
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		_, err := r.number()
		return err
	}
	return r.fail("unexpected character")
}
