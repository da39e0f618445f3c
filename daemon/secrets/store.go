package secrets

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Backend reads and writes one secret, a map of string fields, by its full
// path ("kv/maas-sites/..."). Vault and Memory implement it. Errors are
// *lifecycle.Error with the codes listed in the package documentation.
type Backend interface {
	Read(ctx context.Context, path string) (map[string]string, error)
	Write(ctx context.Context, path string, data map[string]string) error
}

// Store reads and writes the daemon's secrets in their seed shapes.
type Store struct{ b Backend }

// NewStore returns a Store over b.
func NewStore(b Backend) *Store { return &Store{b: b} }

// MAASToken reads a site's MAAS API token.
func (s *Store) MAASToken(ctx context.Context, path string) (Secret, error) {
	return s.field(ctx, path, "token")
}

// PutMAASToken writes (or rotates) a site's MAAS API token.
func (s *Store) PutMAASToken(ctx context.Context, path string, token Secret) error {
	return s.b.Write(ctx, path, map[string]string{"token": token.Reveal()})
}

// DeployPassword reads a site's deploy-user password.
func (s *Store) DeployPassword(ctx context.Context, path string) (Secret, error) {
	return s.field(ctx, path, "password")
}

// PutDeployPassword writes (or rotates) a site's deploy-user password.
func (s *Store) PutDeployPassword(ctx context.Context, path string, pass Secret) error {
	return s.b.Write(ctx, path, map[string]string{"password": pass.Reveal()})
}

// PowerCredentials reads power credentials at path.
func (s *Store) PowerCredentials(ctx context.Context, path string) (PowerCredentials, error) {
	data, err := s.b.Read(ctx, path)
	if err != nil {
		return PowerCredentials{}, err
	}
	user, ok := data["user"]
	if !ok {
		return PowerCredentials{}, missingField(path, "user")
	}
	pass, ok := data["pass"]
	if !ok {
		return PowerCredentials{}, missingField(path, "pass")
	}
	return PowerCredentials{User: user, Pass: Secret(pass)}, nil
}

// PutPowerCredentials writes (or rotates) power credentials at path.
func (s *Store) PutPowerCredentials(ctx context.Context, path string, c PowerCredentials) error {
	return s.b.Write(ctx, path, map[string]string{"user": c.User, "pass": c.Pass.Reveal()})
}

func (s *Store) field(ctx context.Context, path, name string) (Secret, error) {
	data, err := s.b.Read(ctx, path)
	if err != nil {
		return "", err
	}
	v, ok := data[name]
	if !ok {
		return "", missingField(path, name)
	}
	return Secret(v), nil
}

func missingField(path, name string) error {
	return lifecycle.Errorf(lifecycle.CodeNotFound, "secrets.Read", "secret %s has no field %q", path, name)
}

// WebhookSecret reads a site's webhook HMAC secret at
// lifecycle.WebhookSecretVaultPath; not_found when it is missing or empty.
func (s *Store) WebhookSecret(ctx context.Context, siteID string) ([]byte, error) {
	sec, err := s.field(ctx, lifecycle.WebhookSecretVaultPath(siteID), "secret")
	if err != nil {
		return nil, err
	}
	if sec.Empty() {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "secrets.WebhookSecret", "site %s has an empty webhook secret", siteID)
	}
	return []byte(sec.Reveal()), nil
}

// NotifyDBPassword reads the password of a site's LISTEN database role at
// lifecycle.NotifyDBPasswordVaultPath: not_found when it is missing or
// empty, unavailable when Vault cannot be reached.
func (s *Store) NotifyDBPassword(ctx context.Context, siteID string) (string, error) {
	sec, err := s.field(ctx, lifecycle.NotifyDBPasswordVaultPath(siteID), "password")
	if err != nil {
		return "", err
	}
	if sec.Empty() {
		return "", lifecycle.Errorf(lifecycle.CodeNotFound, "secrets.NotifyDBPassword", "site %s has an empty notify-db password", siteID)
	}
	return sec.Reveal(), nil
}
