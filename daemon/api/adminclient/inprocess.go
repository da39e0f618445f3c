package adminclient

import (
	"bytes"
	"io"
	"net/http"
)

// InProcess is a transport that answers every request by calling h
// directly, as from remoteAddr: the console calls the admin API in its
// own process this way, through the same Client as the command line.
func InProcess(h http.Handler, remoteAddr string) http.RoundTripper {
	return inProcess{h: h, addr: remoteAddr}
}

type inProcess struct {
	h    http.Handler
	addr string
}

// RoundTrip serves r as the server would receive it and returns what h
// wrote.
func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	in := r.Clone(r.Context())
	in.RemoteAddr, in.RequestURI = t.addr, r.URL.RequestURI()
	if in.Body == nil {
		in.Body = http.NoBody
	}
	w := &recorder{header: http.Header{}}
	t.h.ServeHTTP(w, in)
	if r.Body != nil {
		_ = r.Body.Close()
	}
	code := w.status()
	return &http.Response{Status: http.StatusText(code), StatusCode: code, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.header, Body: io.NopCloser(bytes.NewReader(w.body.Bytes())), ContentLength: int64(w.body.Len()), Request: r}, nil
}

// recorder is the ResponseWriter an in-process call writes to, kept in
// memory (the binary links no test support, so not httptest's recorder).
type recorder struct {
	code   int
	header http.Header
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }

// WriteHeader records the status once; later calls are ignored.
func (w *recorder) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

// Write appends to the body, answering 200 if no status was written.
func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

func (w *recorder) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}
