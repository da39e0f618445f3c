package lifecycle

import (
	"fmt"
	"log/slog"
)

// Secret is a secret value: a MAAS API key, a BMC or deploy password, a
// machine's MAAS token secret, an enrollment token. Printing it with any
// fmt verb, logging it with log/slog or marshalling it to JSON or text
// shows "[redacted]"; Reveal returns the value for the one place that
// sends it on.
type Secret string

const redacted = "[redacted]"

// Reveal returns the secret value.
func (s Secret) Reveal() string { return string(s) }

// Empty reports whether the secret has no value.
func (s Secret) Empty() bool { return s == "" }

// String returns "[redacted]".
func (s Secret) String() string { return redacted }

// GoString returns "[redacted]", for %#v.
func (s Secret) GoString() string { return redacted }

// Format prints "[redacted]" for every verb, %q and %x included.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(redacted)) }

// LogValue returns "[redacted]" to log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalText returns "[redacted]", for encoding/json and friends.
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// MarshalJSON returns "[redacted]" as a JSON string.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }
