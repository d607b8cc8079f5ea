// Package fuzzci lets the test suite fuzz: its test runs every fuzz target
// of the module (every func FuzzX(*testing.F) in a _test.go file, found
// by reading the sources, so a new target is fuzzed without being listed)
// for the time $MESHRIG_FUZZTIME gives each, as
//
//	go test -run '^$' -fuzz '^FuzzX$' -fuzztime $MESHRIG_FUZZTIME ./pkg
//
// CI sets MESHRIG_FUZZTIME (see .ci/run); without it, or under -short,
// the test skips. A target that fails leaves its input in the package's
// testdata/fuzz/FuzzX, where `go test` replays it from then on, and the
// test prints the input.
package fuzzci

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Target is one fuzz target: its package folder, relative to the module
// root ("format/gltf"), and its function name.
type Target struct {
	Dir, Name string
}

// fuzzFunc matches the declaration of a fuzz target.
var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz[A-Za-z0-9_]*)\(\s*\w+\s+\*testing\.F\s*\)`)

// Targets lists the fuzz targets of the module rooted at root, sorted by
// folder and name. Hidden folders, testdata and node_modules are not
// searched.
func Targets(root string) ([]Target, error) {
	var out []Target
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		for _, m := range fuzzFunc.FindAllSubmatch(src, -1) {
			out = append(out, Target{Dir: filepath.ToSlash(rel), Name: string(m[1])})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dir != out[j].Dir {
			return out[i].Dir < out[j].Dir
		}
		return out[i].Name < out[j].Name
	})
	return out, err
}

// ModuleRoot returns the nearest folder at or above dir holding go.mod.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fs.ErrNotExist
		}
		dir = up
	}
}
