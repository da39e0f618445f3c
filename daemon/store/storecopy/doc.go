// Package storecopy moves a store's records between backends: Copy
// exports every record of one store (lifecycle.Exporter), imports them
// into an empty one (lifecycle.Importer) and verifies the copy by
// exporting it again and comparing record by record; WriteStream and
// ReadStream keep an export in a file (gzip-compressed JSON lines), the
// backend-neutral backup format.
package storecopy
