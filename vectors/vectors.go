// Package vectors holds the conformance vectors that README.md in this
// directory documents: JSON files any implementation can load, in any
// language. For Go programs the same files are embedded in the package, so
// a command installed with go install (the conformance kit, cmd/conform)
// carries the vectors of the module version it was built with and needs no
// checkout.
package vectors

import (
	"embed"
	"io/fs"
)

//go:embed *.json
var files embed.FS

// FS returns the vector files, read-only: every *.json of this directory
// (the case files, ids.json, rules.json and schema.json) as they are in the
// module version the program was built with.
func FS() fs.FS { return files }
