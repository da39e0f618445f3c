// Package docs holds the operator documentation. It is a Go package only
// so that the admin API can embed and serve its OpenAPI document, which
// lives here beside the rest of the reference.
package docs

import _ "embed"

// OpenAPI is the OpenAPI 3 document of the admin API (openapi.json).
//
//go:embed openapi.json
var OpenAPI []byte
