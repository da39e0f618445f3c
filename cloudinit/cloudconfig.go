package cloudinit

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// cloudConfig is the subset of cloud-config this package writes. Field
// order is output order.
type cloudConfig struct {
	Users      []any       `yaml:"users,omitempty"`
	WriteFiles []writeFile `yaml:"write_files,omitempty"`
	RunCmd     [][]string  `yaml:"runcmd,omitempty"`
}

// writeFile is one write_files entry. Permissions is an octal string such
// as "0600", as cloud-init's schema requires.
type writeFile struct {
	Path        string `yaml:"path"`
	Owner       string `yaml:"owner"`
	Permissions string `yaml:"permissions"`
	Content     string `yaml:"content"`
}

// user is one users entry.
type user struct {
	Name         string   `yaml:"name"`
	Groups       []string `yaml:"groups"`
	Shell        string   `yaml:"shell"`
	LockPasswd   bool     `yaml:"lock_passwd"`
	HashedPasswd string   `yaml:"hashed_passwd"`
}

// marshalYAML encodes v with two-space indentation.
func marshalYAML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// part is one MIME part: a named cloud-config with a comment header.
type part struct {
	name   string   // file name in Content-Disposition
	header []string // comment lines after "#cloud-config"
	cfg    cloudConfig
}

// file is a root-owned write_files entry.
func file(path, perm, content string) writeFile {
	return writeFile{Path: path, Owner: "root:root", Permissions: perm, Content: content}
}

// body renders the part as a cloud-config document.
func (p part) body() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("#cloud-config\n")
	for _, l := range p.header {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	y, err := marshalYAML(p.cfg)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", p.name, err)
	}
	b.Write(y)
	return b.Bytes(), nil
}
