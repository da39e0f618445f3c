package cloudinit

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"unicode/utf8"
)

// MergeType makes each cloud-config part append to the lists (runcmd,
// write_files, users) of the parts before it instead of replacing them.
const MergeType = "list(append)+dict(no_replace,recurse_list)+str()"

// ContentType is the content type of every part.
const ContentType = "text/cloud-config"

type encodedPart struct {
	name, encoding, charset string
	body                    []byte
}

// multipartMIME writes the parts as multipart/mixed. The boundary is a
// digest of the parts, so equal input gives equal bytes.
func multipartMIME(parts []part) ([]byte, error) {
	enc := make([]encodedPart, 0, len(parts))
	sum := sha256.New()
	for _, p := range parts {
		body, err := p.body()
		if err != nil {
			return nil, err
		}
		ep := encodedPart{name: p.name, encoding: "7bit", charset: "us-ascii", body: body}
		if !isASCII(body) {
			ep.encoding, ep.charset = "base64", "utf-8"
			ep.body = []byte(wrap76(base64.StdEncoding.EncodeToString(body)))
		}
		fmt.Fprintf(sum, "%s\x00%s\x00", p.name, body)
		enc = append(enc, ep)
	}
	boundary := "gpuaas-" + hex.EncodeToString(sum.Sum(nil))[:32]
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=%q\nMIME-Version: 1.0\n\n", boundary)
	for _, p := range enc {
		if bytes.Contains(p.body, []byte(boundary)) {
			return nil, fmt.Errorf("part %s contains the MIME boundary", p.name)
		}
		fmt.Fprintf(&b, "--%s\nContent-Type: %s; charset=%q\nMIME-Version: 1.0\n", boundary, ContentType, p.charset)
		fmt.Fprintf(&b, "Content-Transfer-Encoding: %s\nContent-Disposition: attachment; filename=%q\n", p.encoding, p.name)
		fmt.Fprintf(&b, "Merge-Type: %s\n\n", MergeType)
		// The line break before a delimiter belongs to the delimiter, so
		// the extra one keeps the body's own final line break.
		b.Write(p.body)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "--%s--\n", boundary)
	return b.Bytes(), nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// wrap76 breaks base64 text into 76-character lines.
func wrap76(s string) string {
	var b bytes.Buffer
	for len(s) > 76 {
		b.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	b.WriteString(s + "\n")
	return b.String()
}
