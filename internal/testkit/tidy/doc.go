// Package tidy holds a check of the repository itself, run with the
// tests: go.mod and go.sum are what `go mod tidy` makes them.
package tidy
