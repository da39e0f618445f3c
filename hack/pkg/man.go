package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"time"
)

// page is a man page in section 1.
type page struct {
	name, summary string
	synopsis      []string
	sections      []section
}

// section is a .SH with optional text, preformatted text and flag lists
// (one per .SS subsection; an empty sub title lists under the .SH).
type section struct {
	title string
	text  string
	pre   string
	subs  []sub
}

type sub struct {
	title string
	flags []flagDoc
}

// flagDoc is one flag of Go's flag.PrintDefaults output.
type flagDoc struct{ name, usage string }

// parseFlags reads flag.PrintDefaults output ("  -name type" then
// "    \tusage" lines); other lines are ignored.
func parseFlags(help []byte) []flagDoc {
	var out []flagDoc
	sc := bufio.NewScanner(bytes.NewReader(help))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "  -"):
			head, usage, _ := strings.Cut(strings.TrimSpace(line), "\t")
			out = append(out, flagDoc{name: head, usage: strings.TrimSpace(usage)})
		case strings.HasPrefix(line, "    \t") && len(out) > 0:
			f := &out[len(out)-1]
			f.usage = strings.TrimSpace(f.usage + " " + strings.TrimSpace(line))
		}
	}
	return out
}

// render writes the page as roff.
func (p page) render(date time.Time, version string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH %s 1 %s %q \"User Commands\"\n", strings.ToUpper(p.name), date.Format("2006-01-02"),
		p.name+" "+version)
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n.SH SYNOPSIS\n", esc(p.name), esc(p.summary))
	for i, s := range p.synopsis {
		if i > 0 {
			b.WriteString(".br\n")
		}
		name, rest, _ := strings.Cut(s, " ")
		fmt.Fprintf(&b, ".B %s\n%s\n", esc(name), esc(rest))
	}
	for _, s := range p.sections {
		fmt.Fprintf(&b, ".SH %s\n", strings.ToUpper(s.title))
		if s.text != "" {
			b.WriteString(fill(s.text))
		}
		if s.pre != "" {
			b.WriteString(".PP\n.nf\n" + lines(s.pre) + ".fi\n")
		}
		for _, sb := range s.subs {
			if sb.title != "" {
				fmt.Fprintf(&b, ".SS %s\n", esc(sb.title))
			}
			for _, f := range sb.flags {
				name, typ, _ := strings.Cut(f.name, " ")
				fmt.Fprintf(&b, ".TP\n\\fB\\-%s\\fR", esc(strings.TrimPrefix(name, "-")))
				if typ != "" {
					fmt.Fprintf(&b, " \\fI%s\\fR", esc(typ))
				}
				fmt.Fprintf(&b, "\n%s\n", esc(f.usage))
			}
		}
	}
	return []byte(b.String())
}

// fill turns paragraphs (blank-line separated) into .PP blocks.
func fill(text string) string {
	var b strings.Builder
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(lines(para))
	}
	return b.String()
}

// lines escapes each line of text.
func lines(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(esc(l) + "\n")
	}
	return b.String()
}

// esc escapes roff's specials: backslashes, minus signs, and a leading
// dot or quote that would make a request of the line.
func esc(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
