// Package openapitest checks the admin API against its OpenAPI document
// (docs/openapi.json) in tests. Handler wraps the API so that every request
// a test sends and every answer it gets is validated; a disagreement fails
// the test. Only tests import it.
package openapitest
