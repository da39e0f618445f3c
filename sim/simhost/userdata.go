package simhost

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

type writeFile struct {
	Path        string `yaml:"path"`
	Permissions string `yaml:"permissions"`
	Encoding    string `yaml:"encoding"`
	Content     string `yaml:"content"`
}

// Apply writes every write_files entry of every cloud-config part of
// userData under root, with its permissions.
func Apply(root string, userData []byte) error {
	parts, err := cloudConfigs(userData)
	if err != nil {
		return err
	}
	for _, p := range parts {
		var cfg struct {
			WriteFiles []writeFile `yaml:"write_files"`
		}
		if err := yaml.Unmarshal(p, &cfg); err != nil {
			return fmt.Errorf("simhost: cloud-config: %w", err)
		}
		for _, f := range cfg.WriteFiles {
			if err := writeOne(root, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeOne(root string, f writeFile) error {
	mode, err := strconv.ParseUint(f.Permissions, 8, 32)
	if err != nil || f.Permissions == "" {
		mode = 0o644
	}
	body := []byte(f.Content)
	if f.Encoding == "b64" || f.Encoding == "base64" {
		if body, err = base64.StdEncoding.DecodeString(f.Content); err != nil {
			return fmt.Errorf("simhost: %s: %w", f.Path, err)
		}
	}
	path := filepath.Join(root, filepath.Clean("/"+f.Path))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, body, os.FileMode(mode))
}

// cloudConfigs returns the text/cloud-config parts of a MIME user-data, or
// the whole of it when it is a single #cloud-config document.
func cloudConfigs(userData []byte) ([][]byte, error) {
	if bytes.HasPrefix(userData, []byte("#cloud-config")) {
		return [][]byte{userData}, nil
	}
	msg, err := mail.ReadMessage(bytes.NewReader(userData))
	if err != nil {
		return nil, fmt.Errorf("simhost: user-data is neither MIME nor #cloud-config: %w", err)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return nil, fmt.Errorf("simhost: user-data content type: %w", err)
	}
	var out [][]byte
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("simhost: user-data part: %w", err)
		}
		body, err := io.ReadAll(p)
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "base64") {
			if body, err = base64.StdEncoding.DecodeString(string(bytes.TrimSpace(body))); err != nil {
				return nil, err
			}
		}
		if strings.HasPrefix(p.Header.Get("Content-Type"), "text/cloud-config") {
			out = append(out, body)
		}
	}
}
