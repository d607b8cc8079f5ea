// Package shareddata finds the real test and benchmark data (mesh
// animations, ground-truth rigs, glTF characters) that lives outside the
// repository: in $MESHRIG_DATA, or ../shared/data from the module root.
// Tests skip with a clear message when it is absent.
package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the data folder, or "" when there is none.
func Dir() string {
	if d := os.Getenv("MESHRIG_DATA"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// This file is <root>/internal/shareddata/shareddata.go.
	d := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data")
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return filepath.Clean(d)
	}
	return ""
}

// Path returns the path of rel inside the data folder, skipping the test
// when the data or that entry is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	d := Dir()
	if d == "" {
		tb.Skip("shared data not found: set MESHRIG_DATA or put it at ../shared/data; skipping")
	}
	p := filepath.Join(d, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared data %s not found; skipping", rel)
	}
	return p
}

// RequireTool skips the test when an external tool (assimp, the glTF
// validator) is missing, unless MESHRIG_REQUIRE_TOOLS=1 — as CI sets —
// where a missing tool fails the test instead.
func RequireTool(tb testing.TB, ok bool, what string) {
	tb.Helper()
	if ok {
		return
	}
	if os.Getenv("MESHRIG_REQUIRE_TOOLS") == "1" {
		tb.Fatalf("%s is required (MESHRIG_REQUIRE_TOOLS=1) but missing", what)
	}
	tb.Skipf("%s not installed; skipping (run .ci/run to install)", what)
}
