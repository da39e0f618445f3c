package secrets

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Mount is the KV version 2 mount that holds the seed's paths.
const Mount = "kv"

// APITokenPath is where a site's MAAS API token lives: {"token": "k:t:s"}.
func APITokenPath(siteID string) string { return sitePath(siteID, "api-token") }

// PowerDefaultPath is where a site's default power credentials live:
// {"user": "...", "pass": "..."}.
func PowerDefaultPath(siteID string) string { return sitePath(siteID, "power/default") }

// PowerOverridePath is where one power credential override lives, in the
// same shape as the default.
func PowerOverridePath(siteID, overrideID string) string {
	return sitePath(siteID, "power/overrides/"+overrideID)
}

// DeployPasswordPath is where a site's deploy-user password lives:
// {"password": "..."}.
func DeployPasswordPath(siteID string) string { return sitePath(siteID, "deploy-password") }

func sitePath(siteID, rest string) string { return Mount + "/maas-sites/" + siteID + "/" + rest }

// splitPath splits "mount/rest/of/path" and rejects empty or dot segments,
// so an id can never climb out of its site.
func splitPath(op, path string) (mount, rest string, err error) {
	segs := strings.Split(path, "/")
	for _, s := range segs {
		if s == "" || s == "." || s == ".." {
			return "", "", lifecycle.Invalid(op, "path", "bad secret path %q", path)
		}
	}
	if len(segs) < 2 {
		return "", "", lifecycle.Invalid(op, "path", "secret path %q names no secret under its mount", path)
	}
	return segs[0], strings.Join(segs[1:], "/"), nil
}

// EvidenceSiteKeyPath is where the evidence site key lives when the
// daemon uses Vault: {"private_key": PKCS#8 PEM, "retired": PEM public
// keys}. One key per daemon, or per store cluster: every member reads it.
const EvidenceSiteKeyPath = Mount + "/maas-sidecar/evidence-site-key"
