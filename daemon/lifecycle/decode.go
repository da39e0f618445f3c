package lifecycle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// DecodeStrict decodes one JSON object from b onto v: members present in
// b overwrite v's fields, others keep their value. Unknown members, wrong
// types, trailing data and anything but a UTF-8 object are invalid, with
// Field naming the offending member when it is known. The admin API
// answers these as malformed requests (400).
func DecodeStrict(b []byte, op string, v any) error {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Invalid(op, "", "the body must be a JSON object")
	}
	if !utf8.Valid(trimmed) {
		return Invalid(op, "", "the body is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(op, err)
	}
	if dec.More() {
		return Invalid(op, "", "the body has data after the JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return Invalid(op, "", "the body has data after the JSON object")
	}
	return nil
}

func decodeError(op string, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return Invalid(op, te.Field, "%s must be a JSON %s, not %s", fieldName(te.Field), te.Type.Kind(), te.Value)
	case errors.As(err, &se):
		return Invalid(op, "", "invalid JSON at byte %d", se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return Invalid(op, "", "the JSON body is truncated")
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		f := strings.Trim(name, `"`)
		return Invalid(op, f, "unknown field %q", f)
	}
	return Invalid(op, "", "%s", strings.TrimPrefix(err.Error(), "json: "))
}

func fieldName(f string) string {
	if f == "" {
		return "the body"
	}
	return fmt.Sprintf("%q", f)
}
