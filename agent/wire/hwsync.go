package wire

import "log/slog"

// MAASCredentials is a machine's MAAS hardware-sync credential (the token
// MAAS issues per machine, GET machines/{id}/?op=get_token), as the daemon
// sends it to the agent. The one copy of this shape on the wire; printing
// or logging it never shows TokenSecret.
type MAASCredentials struct {
	ConsumerKey string `json:"consumer_key"`
	TokenKey    string `json:"token_key"`
	TokenSecret string `json:"token_secret"`
}

// String hides the token secret.
func (c MAASCredentials) String() string {
	return "{consumer_key:" + c.ConsumerKey + " token_key:" + c.TokenKey + " token_secret:[redacted]}"
}

// GoString hides the token secret from %#v.
func (c MAASCredentials) GoString() string { return "wire.MAASCredentials" + c.String() }

// LogValue hides the token secret from log/slog.
func (c MAASCredentials) LogValue() slog.Value {
	return slog.GroupValue(slog.String("consumer_key", c.ConsumerKey), slog.String("token_key", c.TokenKey),
		slog.String("token_secret", "[redacted]"))
}

// HWSyncReseed is the payload of a node.hw_sync_reseed task: the MAAS
// status endpoint the machine reports to, and its credentials (their
// members flattened into the object).
type HWSyncReseed struct {
	Endpoint string `json:"endpoint"`
	MAASCredentials
}
