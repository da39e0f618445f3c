package console

import (
	"bytes"
	"net/http"
)

// answer is the ResponseWriter an in-process admin API call writes to: its
// status, headers and body, kept in memory (the binary links no test
// support, so not httptest's recorder).
type answer struct {
	code   int
	header http.Header
	body   bytes.Buffer
}

func newAnswer() *answer { return &answer{header: http.Header{}} }

// Header returns the answer's headers.
func (a *answer) Header() http.Header { return a.header }

// WriteHeader records the status once; later calls are ignored.
func (a *answer) WriteHeader(code int) {
	if a.code == 0 {
		a.code = code
	}
}

// Write appends to the body, answering 200 if no status was written.
func (a *answer) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(p)
}

// status is the answer's status, 200 when the handler wrote nothing.
func (a *answer) status() int {
	if a.code == 0 {
		return http.StatusOK
	}
	return a.code
}
