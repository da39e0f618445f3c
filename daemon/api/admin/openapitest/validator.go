package openapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Validator checks exchanges against one OpenAPI 3 document.
type Validator struct {
	router routers.Router
	doc    *openapi3.T
}

// New loads and validates the document spec.
func New(spec []byte) (*Validator, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("openapi: load: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("openapi: invalid document: %w", err)
	}
	doc.Servers = nil // match any host: tests serve on their own addresses
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: router: %w", err)
	}
	return &Validator{router: r, doc: doc}, nil
}

// Exchange is one request and the answer it got.
type Exchange struct {
	Request     *http.Request
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte
}

// Check returns how x disagrees with the document, or nil when it agrees:
//   - a path the document lacks must be answered 404, a method it lacks 405;
//   - a request the document rejects (its body, parameters or a missing
//     bearer token; a body without a Content-Type is taken as JSON, as the
//     API reads it) must be answered with a 4xx;
//   - every answer must be documented for its operation: its status, its
//     Content-Type and its body's schema.
func (v *Validator) Check(ctx context.Context, x Exchange) error {
	route, params, err := v.router.FindRoute(x.Request)
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		return wantStatus(x.Status, http.StatusNotFound, "undocumented path")
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return wantStatus(x.Status, http.StatusMethodNotAllowed, "undocumented method")
	case err != nil:
		return fmt.Errorf("find route: %w", err)
	}
	req := x.Request.Clone(ctx)
	req.Body = http.NoBody
	if len(x.RequestBody) > 0 {
		req.Body = readCloser{bytes.NewReader(x.RequestBody)}
		if req.Header.Get("Content-Type") == "" {
			req.Header.Set("Content-Type", "application/json") // the API reads every body as JSON
		}
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: options()}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil && (x.Status < 400 || x.Status > 499) {
		return fmt.Errorf("request the document rejects answered %d: %w", x.Status, err)
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: x.Status, Header: x.Header, Options: options()}
	if err := openapi3filter.ValidateResponse(ctx, out.SetBodyBytes(x.Body)); err != nil {
		return fmt.Errorf("answer: %w", err)
	}
	return nil
}

func wantStatus(got, want int, what string) error {
	if got != want {
		return fmt.Errorf("%s answered %d, want %d", what, got, want)
	}
	return nil
}

func options() *openapi3filter.Options {
	return &openapi3filter.Options{
		IncludeResponseStatus:   true,
		SkipSettingDefaults:     true,
		AuthenticationFunc:      bearer,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()},
	}
}

// bearer accepts a request that carries a bearer token (the scheme is
// case-insensitive); whether the token is valid is the API's to say.
func bearer(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := in.RequestValidationInput.Request.Header.Get("Authorization")
	if scheme, tok, _ := strings.Cut(h, " "); !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return in.NewError(errors.New("no bearer token"))
	}
	return nil
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// The profiling index (/debug/pprof/) is an HTML page; its body is checked
// as an opaque string, as the library does for other non-JSON types.
func init() { openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.FileBodyDecoder) }

// CheckSchema returns how the JSON body disagrees with the document's
// component schema name, or nil when it agrees.
func (v *Validator) CheckSchema(name string, body []byte) error {
	ref := v.doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("openapi: no schema %s", name)
	}
	var val any
	if err := json.Unmarshal(body, &val); err != nil {
		return fmt.Errorf("openapi: %s: %w", name, err)
	}
	if err := ref.Value.VisitJSON(val); err != nil {
		return fmt.Errorf("openapi: %s: %w", name, err)
	}
	return nil
}

// Admin is the Validator of the admin API's document (docs/openapi.json).
func Admin() (*Validator, error) { return admin() }
