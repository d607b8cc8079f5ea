package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/metric"
)

// logf prints a progress note on stderr unless quiet.
func (g *globals) logf(format string, a ...any) {
	if !g.quiet {
		fmt.Fprintf(os.Stderr, format+"\n", a...)
	}
}

// printReport writes the human-readable summary of a report.
func printReport(w io.Writer, r metric.Report) {
	if r.Method != "" {
		fmt.Fprintf(w, "method        %s\n", r.Method)
	}
	fmt.Fprintf(w, "vertices      %d\n", r.Vertices)
	fmt.Fprintf(w, "frames        %d\n", r.Frames)
	fmt.Fprintf(w, "bones         %d (%s)\n", r.Bones, count(r.Joints, "joint"))
	// The file's own playback shows when the rig read from it plays it
	// differently at the precision printed.
	if p := r.Playback; p != nil && (fmt.Sprintf("%.4f %.4f", p.RMSEPercent, p.MaxPercent) != fmt.Sprintf("%.4f %.4f", r.RMSEPercent, r.MaxPercent)) {
		fmt.Fprintf(w, "file playback (every influence, as the file plays)\n")
		fmt.Fprintf(w, "  RMSE%%       %.4f\n", p.RMSEPercent)
		fmt.Fprintf(w, "  Max%%        %.4f\n", p.MaxPercent)
		fmt.Fprintf(w, "rig read from the file (4 largest influences)\n")
	}
	if r.Seconds > 0 {
		fmt.Fprintf(w, "seconds       %.2f\n", r.Seconds)
	}
	fmt.Fprintf(w, "RMSE%%         %.4f\n", r.RMSEPercent)
	fmt.Fprintf(w, "Max%%          %.4f\n", r.MaxPercent)
	fmt.Fprintf(w, "normal RMS    %.4f\n", r.NormalRMS)
	fmt.Fprintf(w, "ACCU%%         %.4f\n", r.ACCUPercent)
	if n := len(r.FrameRMSEPercent); n > 1 {
		worst := 0
		for f, e := range r.FrameRMSEPercent {
			if e > r.FrameRMSEPercent[worst] {
				worst = f
			}
		}
		fmt.Fprintf(w, "worst frame   %d (RMSE%% %.4f)\n", worst+1, r.FrameRMSEPercent[worst])
	}
	if r.JointErrorPercent != nil {
		fmt.Fprintf(w, "joint error%%  %.4f\n", *r.JointErrorPercent)
	}
}

// count writes n with its noun, singular for one: "1 clip", "3 clips".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "x") {
		return strconv.Itoa(n) + " " + noun + "es"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
