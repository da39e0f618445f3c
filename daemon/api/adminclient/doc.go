// Package adminclient is the typed client of the admin API, used by the
// command line (over HTTP) and by the console (in-process, through
// InProcess's transport). Its answers are the types of package answer
// that the server writes; a refused call is an *APIError.
package adminclient
