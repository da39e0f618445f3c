package admin

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// List pages: limit (default pageDefault, 1 to pageMax) and an opaque
// cursor from the previous page's next_cursor. A cursor is bound to the
// route and filter it was made for; another filter refuses it.
const (
	pageDefault = 500
	pageMax     = 1000
)

// pageReq is one list request's page: its size and where it starts.
type pageReq struct {
	limit int
	after string // the last item of the previous page; empty for the first
	scope string // the route and filter the cursor must belong to
}

// cursorBody is what a cursor carries, base64url-encoded JSON.
type cursorBody struct {
	Scope string `json:"s"`
	After string `json:"a"`
}

// readPage parses limit and cursor for the list named route whose filter
// is filter (the query values that select, in a fixed order).
func readPage(op string, q url.Values, route string, filter ...string) (pageReq, error) {
	p := pageReq{limit: pageDefault, scope: scopeOf(route, filter)}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > pageMax {
			return p, lifecycle.Invalid(op, "limit", "limit %.32q is not a whole number from 1 to %d", s, pageMax)
		}
		p.limit = n
	}
	c := q.Get("cursor")
	if c == "" {
		return p, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	var body cursorBody
	if err == nil {
		err = json.Unmarshal(raw, &body)
	}
	switch {
	case err != nil || body.After == "":
		return p, lifecycle.Invalid(op, "cursor", "cursor is not one this API gave out")
	case body.Scope != p.scope:
		return p, lifecycle.Invalid(op, "cursor", "cursor belongs to another list or filter; start again without it")
	}
	p.after = body.After
	return p, nil
}

// next is the cursor of the page after one that ended at after.
func (p pageReq) next(after string) string {
	raw, _ := json.Marshal(cursorBody{Scope: p.scope, After: after})
	return base64.RawURLEncoding.EncodeToString(raw)
}

// cutPage trims items (read with limit+1) to the page and returns the
// next cursor, empty on the last page; key names an item's position.
func cutPage[T any](p pageReq, items []T, key func(T) string) ([]T, string) {
	if len(items) <= p.limit {
		return items, ""
	}
	items = items[:p.limit]
	return items, p.next(key(items[len(items)-1]))
}

func scopeOf(route string, filter []string) string {
	h := sha256.New()
	for _, s := range append([]string{route}, filter...) {
		h.Write([]byte(strconv.Quote(s)))
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:12])
}

// memPage is a page of a list read whole: items sorted by key (unique per
// item, in the list's order), those after the cursor, cut to the page.
// Only for lists that stay small (a site's configuration, the sites);
// a list that grows with the fleet pages in its store instead.
func memPage[T any](p pageReq, items []T, key func(T) string) ([]T, string) {
	slices.SortStableFunc(items, func(a, b T) int { return strings.Compare(key(a), key(b)) })
	i, _ := slices.BinarySearchFunc(items, p.after, func(it T, after string) int {
		if p.after != "" && key(it) <= after {
			return -1
		}
		return 1
	})
	return cutPage(p, items[i:], key)
}
