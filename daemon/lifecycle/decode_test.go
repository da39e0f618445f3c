package lifecycle

import "testing"

// A type error names the JSON member, without the Go names of the
// embedded structs the body decodes into (a PATCH body embeds the
// create body's fields).
func TestDecodeStrictFieldOfEmbeddedMember(t *testing.T) {
	type fields struct {
		VID    *int `json:"vid"`
		Notify *struct {
			Source string `json:"source"`
		} `json:"notify"`
	}
	type patch struct {
		fields
		Key *string `json:"key"`
	}
	for in, want := range map[string]string{
		`{"vid": "46"}`:             "vid",
		`{"notify": "dsn"}`:         "notify",
		`{"notify": {"source": 1}}`: "notify.source",
		`{"key": 5}`:                "key",
	} {
		var p patch
		if err := DecodeStrict([]byte(in), "op", &p); ErrorField(err) != want {
			t.Errorf("%s: %v (field %q), want field %q", in, err, ErrorField(err), want)
		}
	}
}
