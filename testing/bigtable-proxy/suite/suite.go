//go:build suite

// The conformance tests themselves, so that `go mod tidy` keeps every
// module they build with in go.mod and go.sum (the tag keeps this file out
// of `go run .`).
package main

import _ "github.com/googleapis/cloud-bigtable-clients-test/tests"
