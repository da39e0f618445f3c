package console

import "net/url"

// nextHref is the link to a list's next page: path with the page's own
// query q (its filters; limit dropped) and cursor set to the API's
// next_cursor. Empty on the last page. The whole href is built here so
// that the template escapes it once, as a URL, not as a query value.
func nextHref(path string, q url.Values, cursor string) string {
	if cursor == "" {
		return ""
	}
	out := url.Values{}
	for k, v := range q {
		if k != "limit" && k != "cursor" {
			out[k] = v
		}
	}
	out.Set("cursor", cursor)
	return path + "?" + out.Encode()
}
