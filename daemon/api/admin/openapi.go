package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/docs"
)

// OpenAPIPath serves the OpenAPI 3 document of the admin API, without auth.
const OpenAPIPath = "/api/v1/openapi.json"

func serveOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(docs.OpenAPI)
}
