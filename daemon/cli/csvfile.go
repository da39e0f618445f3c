package cli

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"strings"
)

// row is one CSV record by column name, with its line number.
type row struct {
	line   int
	fields map[string]string
}

// readCSV reads a header-driven CSV file: the first line names the
// columns (any order, case-insensitive), every column in want must be
// there and no other. Blank lines and lines starting with # are skipped.
// Errors name the file and line; nothing has been sent when they occur.
func readCSV(path string, want ...string) ([]row, error) {
	return readCSVOptional(path, want, nil)
}

// readCSVOptional is readCSV where the header may also name the columns
// of optional; a row's field of an absent column is "".
func readCSVOptional(path string, want, optional []string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment, r.FieldsPerRecord, r.TrimLeadingSpace = '#', -1, true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, usagef("%s: empty file; want a header line %s", path, strings.Join(want, ","))
	}
	if err != nil {
		return nil, csvError(path, err)
	}
	cols, err := columns(path, header, want, optional)
	if err != nil {
		return nil, err
	}
	var out []row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(path, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) != len(cols) {
			return nil, usagef("%s:%d: %d fields, want %d (%s)", path, line, len(rec), len(cols), strings.Join(cols, ","))
		}
		m := map[string]string{}
		for i, c := range cols {
			m[c] = strings.TrimSpace(rec[i])
		}
		out = append(out, row{line: line, fields: m})
	}
	if len(out) == 0 {
		return nil, usagef("%s: no rows after the header", path)
	}
	return out, nil
}

func columns(path string, header, want, optional []string) ([]string, error) {
	cols := make([]string, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if (!contains(want, h) && !contains(optional, h)) || seen[h] {
			return nil, usagef("%s:1: bad header column %q; want exactly %s%s", path, h, strings.Join(want, ","), optionalNote(optional))
		}
		seen[h], cols[i] = true, h
	}
	for _, w := range want {
		if !seen[w] {
			return nil, usagef("%s:1: header lacks column %q; want %s", path, w, strings.Join(want, ","))
		}
	}
	return cols, nil
}

// optionalNote names the optional columns for a header error.
func optionalNote(optional []string) string {
	if len(optional) == 0 {
		return ""
	}
	return " and optionally " + strings.Join(optional, ",")
}

func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return usagef("%s:%d: %v", path, pe.Line, pe.Err)
	}
	return usagef("%s: %v", path, err)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
