package secrets

import "log/slog"

// Secret is a secret value. Printing, logging or marshalling it shows
// "[redacted]"; Reveal returns the value for the one place that sends it.
type Secret string

const redacted = "[redacted]"

// Reveal returns the secret value.
func (s Secret) Reveal() string { return string(s) }

// String returns "[redacted]".
func (s Secret) String() string { return redacted }

// GoString returns "[redacted]", for %#v.
func (s Secret) GoString() string { return redacted }

// LogValue returns "[redacted]" to log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalText returns "[redacted]", for encoding/json and friends.
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// PowerCredentials log in to a BMC.
type PowerCredentials struct {
	User string
	Pass Secret
}
