package agentapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

func contains(s, sub string) bool { return sub != "" && strings.Contains(s, sub) }

func jsonBody(v any) io.Reader {
	b, _ := json.Marshal(v)
	return bytes.NewReader(b)
}
