//go:build unix

package batch

import (
	"os/exec"
	"strings"
	"testing"
)

func TestChildError(t *testing.T) {
	// A child the kernel killed (the OOM killer sends SIGKILL).
	err := exec.Command("/bin/sh", "-c", "kill -9 $$").Run()
	if got := childError(err, "").Error(); got != "killed (SIGKILL: out of memory?)" {
		t.Errorf("SIGKILL: %q", got)
	}
	// meshrig's own one-line message, the last of its stderr.
	err = exec.Command("/bin/sh", "-c", "exit 1").Run()
	stderr := "note: welded 3 vertices\nmeshrig: walk/frame-0002.obj:7: vertex index 9 out of range\n"
	if got := childError(err, stderr).Error(); got != "walk/frame-0002.obj:7: vertex index 9 out of range" {
		t.Errorf("exit 1: %q", got)
	}
	if got := childError(err, "").Error(); got != "exit status 1" {
		t.Errorf("exit 1, silent: %q", got)
	}
}

func TestParseReport(t *testing.T) {
	out := "method        ledeng\nvertices      8431\nRMSE%         0.1836\n{\n  \"method\": \"ledeng\",\n  \"vertices\": 8431,\n  \"frames\": 48,\n  \"bones\": 27,\n  \"joints\": 27,\n  \"rmse_percent\": 0.1836,\n  \"max_percent\": 2.0574\n}\n"
	r, err := parseReport([]byte(out))
	if err != nil || r != (rigReport{Vertices: 8431, Frames: 48, Bones: 27, Joints: 27, RMSEPercent: 0.1836, MaxPercent: 2.0574}) {
		t.Errorf("%+v %v", r, err)
	}
	if r, err := parseReport([]byte(out[strings.Index(out, "{"):])); err != nil || r.Bones != 27 {
		t.Errorf("report alone: %+v %v", r, err)
	}
	for _, bad := range []string{"", "method ledeng\n", "x\n{\n  \"bones\": \"many\"\n}\n"} {
		if _, err := parseReport([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
