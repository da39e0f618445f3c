package config

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"regexp"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Load reads the YAML file at path over the defaults. A missing file is an
// error only when required (the operator named it); an empty file means
// all defaults. Unknown keys are rejected by name. Load does not validate.
func Load(path string, required bool) (Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return Default(), nil
	}
	if err != nil {
		return Config{}, lifecycle.Wrap(lifecycle.CodeInvalid, "config", err)
	}
	c, err := Parse(data)
	var e *lifecycle.Error
	if errors.As(err, &e) {
		e.Op = "config " + path
	}
	return c, err
}

// Parse decodes YAML over the defaults, rejecting unknown keys.
func Parse(data []byte) (Config, error) {
	c := Default()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, decodeError(err)
	}
	return c, nil
}

var unknownKey = regexp.MustCompile(`line (\d+): field (\S+) not found`)

// decodeError rewrites yaml.v3's unknown-field message to name the key.
func decodeError(err error) error {
	if m := unknownKey.FindStringSubmatch(err.Error()); m != nil {
		return lifecycle.Invalid("config", m[2], "%s: unknown key (line %s)", m[2], m[1])
	}
	return lifecycle.Wrap(lifecycle.CodeInvalid, "config", err)
}
