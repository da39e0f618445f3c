package lifecycle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
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
		return decodeError(op, err, embedded(reflect.TypeOf(v), nil))
	}
	if dec.More() {
		return Invalid(op, "", "the body has data after the JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return Invalid(op, "", "the body has data after the JSON object")
	}
	return nil
}

func decodeError(op string, err error, skip map[string]bool) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		f := jsonPath(te.Field, skip)
		return Invalid(op, f, "%s must be a JSON %s, not %s", fieldName(f), te.Type.Kind(), te.Value)
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

// embedded collects the Go names of t's embedded structs, which
// encoding/json puts in a type error's field path though the JSON has
// no such member.
func embedded(t reflect.Type, out map[string]bool) map[string]bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if out == nil {
		out = map[string]bool{}
	}
	if t == nil || t.Kind() != reflect.Struct {
		return out
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.Anonymous && f.Tag.Get("json") == "" {
			out[f.Name] = true
			embedded(f.Type, out)
		}
	}
	return out
}

// jsonPath drops the embedded structs' names from a type error's path.
func jsonPath(field string, skip map[string]bool) string {
	var keep []string
	for _, seg := range strings.Split(field, ".") {
		if !skip[seg] {
			keep = append(keep, seg)
		}
	}
	return strings.Join(keep, ".")
}
