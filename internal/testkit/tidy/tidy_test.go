package tidy

import (
	"os/exec"
	"testing"

	"github.com/meshrig/meshrig/internal/shareddata"
)

// TestGoModTidy fails when `go mod tidy` would change go.mod or go.sum
// (a requirement left unused, or a direct one marked indirect), and
// shows the change.
func TestGoModTidy(t *testing.T) {
	gotool, err := exec.LookPath("go")
	shareddata.RequireTool(t, err == nil, "the go command")
	cmd := exec.Command(gotool, "mod", "tidy", "-diff")
	cmd.Dir = "../../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go mod tidy would change the module files (run it):\n%s", out)
	}
}
