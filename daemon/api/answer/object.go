package answer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// member is one member of a JSON object written in a fixed order.
type member struct {
	key string
	val any
}

// object writes the members as one JSON object, in their order.
func object(ms ...member) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		v, err := json.Marshal(m.val)
		if err != nil {
			return nil, fmt.Errorf("answer: %s: %w", m.key, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// members reads a JSON object into its members, undecoded.
func members(b []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// decodeMember decodes m[key] into v when it is there.
func decodeMember(m map[string]json.RawMessage, key string, v any) error {
	raw, ok := m[key]
	if !ok {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

// runKey finds which kind's key (Name, or Collection when list) m holds.
func runKey(m map[string]json.RawMessage, list bool) (RunKind, error) {
	for _, k := range RunKinds {
		key := k.Name
		if list {
			key = k.Collection
		}
		if _, ok := m[key]; ok {
			return k, nil
		}
	}
	return RunKind{}, fmt.Errorf("answer: no run of a known kind in the answer")
}
