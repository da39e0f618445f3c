package wire

import (
	"fmt"
	"time"
)

// ProblemContentType is the media type of every error body (RFC 9457).
const ProblemContentType = "application/problem+json"

// Problem is an RFC 9457 error body. Code is the lifecycle error code
// (invalid, unauthorized, forbidden, not_found, conflict, unavailable,
// internal); Field names the bad input for invalid. It is also the error
// the agent's transport returns for a non-2xx answer.
type Problem struct {
	Type   string `json:"type,omitempty"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Code   string `json:"code,omitempty"`
	Field  string `json:"field,omitempty"`
	// RetryAfter is the answer's Retry-After header (429, 503), zero when
	// absent. It travels in the header, never in the body.
	RetryAfter time.Duration `json:"-"`
}

func (p *Problem) Error() string {
	if p.Detail == "" {
		return fmt.Sprintf("agent api: %d %s", p.Status, p.Title)
	}
	return fmt.Sprintf("agent api: %d %s: %s", p.Status, p.Title, p.Detail)
}
