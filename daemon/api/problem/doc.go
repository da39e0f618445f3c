// Package problem writes errors as RFC 9457 application/problem+json and
// reads JSON request bodies strictly (size limit, unknown fields refused).
// It holds the one table that maps lifecycle error codes to HTTP statuses.
package problem
